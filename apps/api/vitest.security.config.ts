import { defineConfig } from 'vitest/config';
// @ts-expect-error plain JS helper shared by the workspace
import { postgresAvailable } from '../../vitest.projects.mjs';
import { limit } from './test/security/time';

/**
 * The security suite (pnpm test:security): attacks on the running app. Everything runs on
 * PostgreSQL (skipped, and said so, on a machine without it unless REQUIRE_POSTGRES=1); files
 * named *.both.test.ts run on the embedded PGlite as well. Real processes
 * (durability, two instances) are started by the tests themselves from a private build.
 */
// Limits for a hang, not a busy machine: in CI the suite runs at nice 10 beside the browser tests
// (decision 1330), whose Chromium runs its compositor at nice -8. There a harness that starts in 5 s
// alone took over 180 s to start on PGlite (decision 1360): every file's harness uses this one limit.
const common = { testTimeout: limit(180_000), hookTimeout: limit(600_000) };

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
    // Most of its files wait on the servers they start (13m53s of wall time for 5m51s of CPU):
    // three at a time fill the cores better than two (decision 1330).
    maxWorkers: 3,
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
