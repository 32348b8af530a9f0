import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The config decided whether PostgreSQL is there (vitest.projects.mjs postgresAvailable). */
export default async function setup() {
  // One private build of the server for the tests that start real processes.
  const apiDir = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['build.mjs'], { cwd: apiDir, env: { ...process.env, OUT_DIR: '.dist-security' } });
}
