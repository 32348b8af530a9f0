// Stage `payees` (issue 39): a payout batch of 10,000 payees becomes its NACHA ACH file and its
// check register in under 5 seconds, with memory flat from one batch to the next. The services' own
// builders (apps/api/src/services/payees/files.ts) run under tsx in a process of their own, three
// batches in a row; the heap after each (after a GC) must not grow.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAYEES = 10_000;
export const PAYEES_SECONDS = 5;
/** Heap growth from the first batch to the last that still counts as flat. */
export const FLAT_MB = 16;

const api = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'api');

export async function payeesStage(ctx) {
  const rounds = 3;
  const r = spawnSync('pnpm', ['exec', 'tsx', '--expose-gc', 'bench/payee-files.ts', String(PAYEES), String(rounds)], {
    cwd: api,
    encoding: 'utf8',
    env: process.env,
  });
  if (r.status !== 0) throw new Error(`payee-files failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1));
  ctx.log?.(`payees: ${out.runs.map((x) => `${x.totalMs} ms`).join(', ')}`);
  return { startedAt: new Date().toISOString(), settings: { payees: PAYEES, rounds }, ...out };
}

export function payeesTargets(p) {
  if (!p?.runs) return [];
  const worst = Math.max(...p.runs.map((x) => x.totalMs));
  const growth = p.runs.at(-1).heapMb - p.runs[0].heapMb;
  return [
    {
      target: `a batch of ${PAYEES.toLocaleString('en-US')} payees: NACHA file + check register in < ${PAYEES_SECONDS} s`,
      ok: worst < PAYEES_SECONDS * 1000,
      value: `${p.runs.map((x) => `${x.totalMs} ms (ACH ${x.achMs}, checks ${x.checksMs})`).join('; ')}`,
    },
    {
      target: `memory flat over ${p.runs.length} batches (heap growth < ${FLAT_MB} MB)`,
      ok: growth < FLAT_MB,
      value: `heap ${p.runs.map((x) => `${x.heapMb} MB`).join(' -> ')}, RSS ${p.runs.map((x) => `${x.rssMb} MB`).join(' -> ')}`,
    },
  ];
}
