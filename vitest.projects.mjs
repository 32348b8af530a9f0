// Shared by the packages' vitest configs: unit tests once, integration tests (*.int.test.ts)
// twice, on a real PostgreSQL and on the embedded PGlite.
// The same reachability check the tests' own helpers use (packages/db/src/testing.ts). Imported by
// a relative path on purpose: the vitest config bundler compiles relative TypeScript imports, while
// a package name (@dn/db/testing) would be left to Node, which cannot load that TypeScript.
import { TEST_PG_ADMIN_URL as adminUrl, postgresReachable } from './packages/db/src/postgres-reachable.ts';

/**
 * Whether the PostgreSQL suites run: yes when PostgreSQL answers; with REQUIRE_POSTGRES=1 (CI)
 * an unreachable server is an error; otherwise they are skipped, and that is said plainly.
 * @param {string} what
 */
export async function postgresAvailable(what = 'integration') {
  if (await postgresReachable()) return true;
  if (process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${adminUrl}`);
  }
  process.stderr.write(
    `\n*** PostgreSQL is not reachable at ${adminUrl}: the PostgreSQL ${what} suite is SKIPPED; it ran on PGlite only. ***\n\n`,
  );
  return false;
}

/**
 * @param {{ unit?: string[], integration?: string[], exclude?: string[], testTimeout?: number }} opts
 */
export async function dbProjects(opts = {}) {
  const unit = opts.unit ?? ['src/**/*.test.ts', 'test/**/*.test.ts'];
  const integration = opts.integration ?? ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'];
  const exclude = ['**/node_modules/**', '**/dist/**', ...(opts.exclude ?? [])];
  const testTimeout = opts.testTimeout ?? 30_000;
  // `*.pg.int.test.ts` run on PostgreSQL only, `*.pglite.int.test.ts` on PGlite only.
  const onlyPg = integration.map((g) => g.replace('.int.test.ts', '.pg.int.test.ts'));
  const onlyPglite = integration.map((g) => g.replace('.int.test.ts', '.pglite.int.test.ts'));
  const projects = [
    { test: { name: 'unit', include: unit, exclude: [...exclude, ...integration], testTimeout } },
    {
      test: {
        name: 'pglite',
        include: integration,
        exclude: [...exclude, ...onlyPg],
        env: { TEST_DB: 'pglite' },
        testTimeout,
        hookTimeout: 60_000,
      },
    },
  ];
  if (await postgresAvailable()) {
    projects.push({
      test: {
        name: 'postgres',
        include: integration,
        exclude: [...exclude, ...onlyPglite],
        env: { TEST_DB: 'postgres' },
        testTimeout,
        hookTimeout: 60_000,
      },
    });
  }
  return projects;
}
