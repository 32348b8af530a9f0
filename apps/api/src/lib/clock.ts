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
