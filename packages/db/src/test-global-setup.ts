import { postgresReachable } from './postgres-reachable';
import { prepareTemplates } from './test-template';

/**
 * Vitest global setup of the packages with integration tests (their vitest.config.ts): the migrated
 * and seeded templates of the databases this run uses are made once, before any test file starts,
 * with no hook's limit on it (issue 46). Which databases: TEST_DATABASES as vitest.projects.mjs
 * reads it (both; pglite; postgres, or PGlite without it; one: PostgreSQL when it answers).
 * Templates already made (same migrations, seed and PGlite) are found and kept.
 */
export default async function setup(): Promise<void> {
  const wanted = process.env.TEST_DATABASES ?? 'one';
  const pg = wanted !== 'pglite' && (await postgresReachable());
  const kinds: ('postgres' | 'pglite')[] = [];
  if (pg) kinds.push('postgres');
  if (wanted === 'both' || wanted === 'pglite' || !pg) kinds.push('pglite');
  const t = Date.now();
  await prepareTemplates(kinds);
  const s = (Date.now() - t) / 1000;
  if (s > 5) process.stdout.write(`test templates (${kinds.join(', ')}) made in ${s.toFixed(1)} s\n`);
}
