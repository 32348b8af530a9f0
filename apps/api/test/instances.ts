import { afterAll, beforeAll } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { createHarness, type Harness } from './helpers';

/**
 * Two server instances for the file (issue 38): two apps on one database sharing one shifted clock,
 * so "the lease expired" or "it is 08:00 now" are clock moves. Read `a` and `b` inside tests and hooks.
 */
export function twoInstancesForFile() {
  const clock = new ShiftedClock();
  const t = {
    clock,
    a: undefined as unknown as Harness,
    b: undefined as unknown as Harness,
    /** Sets the clock to an absolute time. */
    setNow(iso: string) {
      clock.offsetMs = new Date(iso).getTime() - Date.now();
    },
  };
  beforeAll(async () => {
    t.a = await createHarness({ clock });
    t.b = await createHarness({ database: t.a.database, clock });
  });
  afterAll(async () => {
    await t.b?.close();
    await t.a?.close();
  });
  return t;
}

/** A promise and its resolve, for a test that waits until a sweep has got somewhere. */
export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
