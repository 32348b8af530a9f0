import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { postgresReachable, TEST_PG_ADMIN_URL } from '@dn/db/testing';

/** The suite is about PostgreSQL in production: it refuses to pass without it. */
export default async function setup() {
  if (!(await postgresReachable())) {
    throw new Error(`The security suite needs PostgreSQL at ${TEST_PG_ADMIN_URL} (set TEST_DATABASE_URL)`);
  }
  // One private build of the server for the tests that start real processes.
  const apiDir = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['build.mjs'], { cwd: apiDir, env: { ...process.env, OUT_DIR: '.dist-security' } });
}
