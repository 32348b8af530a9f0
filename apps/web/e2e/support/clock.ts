import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The e2e server's clock (issue 38): global-setup starts it with TEST_CLOCK_FILE, a file holding an
 * offset in ms that the server reads at each `now()` (apps/api/src/lib/clock.ts FileClock). The
 * shift is shared by every spec running at the time: move it only forward, by what a test needs,
 * and never back (a sweep already run stays run).
 */
function clockFile(): string {
  const file = process.env.E2E_CLOCK_FILE;
  if (!file) throw new Error('E2E_CLOCK_FILE is not set: run through playwright (global-setup)');
  return file;
}

export function clockOffset(): number {
  return Number(readFileSync(clockFile(), 'utf8').trim()) || 0;
}

/** Moves the server's clock `ms` forward; the scheduler (every second in e2e) acts on the new time. */
export function advanceClock(ms: number): number {
  if (ms < 0) throw new Error('the e2e clock only moves forward');
  const next = clockOffset() + ms;
  writeFileSync(clockFile(), String(next));
  return next;
}
