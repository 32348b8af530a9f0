import { readFileSync } from 'node:fs';

/**
 * What time it is, for the services that act on dates (reminders, deadlines, business days).
 * The system clock in production; tests and the browser suite move a shifted one forward instead of
 * waiting, so "24 hours before" and "the offer expired" are checked without sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock `offsetMs` ahead of the system's; `advance` moves it further (tests only). */
export class ShiftedClock implements Clock {
  constructor(public offsetMs = 0) {}
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/**
 * The browser suite's clock (TEST_CLOCK_FILE, issue 38): the system's plus the offset in ms written
 * in `path` (the e2e helper `advanceClock` rewrites it), read at each `now()`; a missing or unreadable
 * file reads as no offset. env.ts refuses it in production unless ALLOW_TEST_CLOCK=1.
 */
export class FileClock implements Clock {
  constructor(private readonly path: string) {}
  offsetMs(): number {
    try {
      const n = Number(readFileSync(this.path, 'utf8').trim());
      return Number.isFinite(n) ? n : 0;
    } catch {
      return 0;
    }
  }
  now(): Date {
    return new Date(Date.now() + this.offsetMs());
  }
}
