import { defineConfig } from 'vitest/config';
// @ts-expect-error plain JS helper shared by the workspace
import { postgresAvailable } from '../../vitest.projects.mjs';

/**
 * The security suite (pnpm test:security): attacks on the running app. Everything runs on
 * PostgreSQL (skipped, and said so, on a machine without it unless REQUIRE_POSTGRES=1); files
 * named *.both.test.ts run on the embedded PGlite as well. Real processes
 * (durability, two instances) are started by the tests themselves from a private build.
 */
const common = { testTimeout: 60_000, hookTimeout: 120_000 };

const postgres = {
  test: {
    ...common,
    name: 'security-postgres',
    include: ['test/security/**/*.test.ts'],
    env: { TEST_DB: 'postgres' },
  },
};

export default defineConfig(async () => ({
  test: {
    maxWorkers: 2,
    globalSetup: ['test/security/global-setup.ts'],
    projects: [
      ...((await postgresAvailable('security')) ? [postgres] : []),
      {
        test: {
          ...common,
          name: 'security-pglite',
          include: ['test/security/**/*.both.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
    ],
  },
}));
