import pg from 'pg';

/**
 * The PostgreSQL server the tests create their databases on. Kept apart from testing.ts, with no
 * import but pg, because vitest.projects.mjs imports it too: a relative import, so the vitest
 * config bundler compiles it (Node itself never loads this TypeScript).
 */

export const TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Whether PostgreSQL answers a query at `url`. A server that is not there refuses the connection at
 * once; the limit is for one that answers slowly: two seconds was not enough on a loaded machine,
 * which then ran (and generated types) on PGlite, or failed under REQUIRE_POSTGRES=1 (issue 46).
 */
export async function postgresReachable(url = TEST_PG_ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
