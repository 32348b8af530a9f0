// Shared by the packages' vitest configs: unit tests once, integration tests (*.int.test.ts) on a
// real PostgreSQL, on the embedded PGlite, or both (TEST_DATABASES; decision 0890):
//   one (the default, `pnpm test`): PostgreSQL when it answers, otherwise PGlite (and said so);
//   both (`pnpm test:all`, CI): both; pglite or postgres: that one.
// The same reachability check the tests' own helpers use (packages/db/src/testing.ts). Imported by
// a relative path on purpose: the vitest config bundler compiles relative TypeScript imports, while
// a package name (@dn/db/testing) would be left to Node, which cannot load that TypeScript.
import { availableParallelism } from 'node:os';
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
  const wanted = process.env.TEST_DATABASES ?? 'one';
  if (!['one', 'both', 'pglite', 'postgres'].includes(wanted)) {
    throw new Error(`TEST_DATABASES is one, both, pglite or postgres, not ${wanted}`);
  }
  const unit = opts.unit ?? ['src/**/*.test.ts', 'test/**/*.test.ts'];
  const integration = opts.integration ?? ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'];
  const exclude = ['**/node_modules/**', '**/dist/**', ...(opts.exclude ?? [])];
  const testTimeout = opts.testTimeout ?? 30_000;
  // Integration files share the cores with the other files running at the same time, and in CI
  // with the security suite and the browser tests (decision 1330): the property tests on PGlite take
  // 10-70 s alone, and one (admin-versions, 65 s quiet) passed 120 s at a load average of 39. So
  // the limit catches a hang, not a busy machine. So does a hook's: a PGlite harness started beside
  // other work took over 60 s (issue 46).
  const intTimeout = Math.max(testTimeout, 300_000);
  // `*.pg.int.test.ts` run on PostgreSQL only, `*.pglite.int.test.ts` on PGlite only.
  const onlyPg = integration.map((g) => g.replace('.int.test.ts', '.pg.int.test.ts'));
  const onlyPglite = integration.map((g) => g.replace('.int.test.ts', '.pglite.int.test.ts'));
  const pglite = {
    test: {
      name: 'pglite',
      include: integration,
      exclude: [...exclude, ...onlyPg],
      env: { TEST_DB: 'pglite' },
      testTimeout: intTimeout,
      hookTimeout: intTimeout,
    },
  };
  const postgres = {
    test: {
      name: 'postgres',
      include: integration,
      exclude: [...exclude, ...onlyPglite],
      env: { TEST_DB: 'postgres' },
      testTimeout: intTimeout,
      hookTimeout: intTimeout,
    },
  };
  const projects = [{ test: { name: 'unit', include: unit, exclude: [...exclude, ...integration], testTimeout } }];
  if (wanted === 'pglite') return [...projects, pglite];
  if (wanted === 'postgres' || wanted === 'both') {
    // An explicit choice of PostgreSQL needs it (postgresAvailable throws under REQUIRE_POSTGRES=1).
    const pg = await postgresAvailable();
    return [...projects, ...(wanted === 'both' || !pg ? [pglite] : []), ...(pg ? [postgres] : [])];
  }
  return [...projects, (await postgresAvailable()) ? postgres : pglite];
}

/**
 * Test files run at the same time: the integration tests wait on PostgreSQL, on argon2's threads
 * and on timers more than they compute, so one more worker than cores keeps both cores busy
 * (measured in decision 0890). TEST_WORKERS sets it.
 */
export function testWorkers() {
  const set = Number(process.env.TEST_WORKERS);
  return Number.isInteger(set) && set > 0 ? set : availableParallelism() + 1;
}
