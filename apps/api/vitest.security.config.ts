import { defineConfig } from 'vitest/config';

/**
 * The security suite (pnpm test:security): attacks on the running app. Everything runs on
 * PostgreSQL; files named *.both.test.ts run on the embedded PGlite as well. Real processes
 * (durability, two instances) are started by the tests themselves from a private build.
 */
const common = { testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    maxWorkers: 2,
    globalSetup: ['test/security/global-setup.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'security-postgres',
          include: ['test/security/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
        },
      },
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
});
