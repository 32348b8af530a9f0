import { allForYear } from '@18f/us-federal-holidays';

/**
 * Business days: Monday to Friday, less the US federal holidays as observed (a Saturday holiday on
 * the Friday before, a Sunday one on the Monday after), from @18f/us-federal-holidays (OPM's
 * rules), never a hand-typed list. Dates are calendar days, 'yyyy-mm-dd'.
 * The scheduler's engineer writes the shared helper in parallel: the lead keeps one at merge.
 */

const holidaysByYear = new Map<number, ReadonlySet<string>>();

function holidaysOf(year: number): ReadonlySet<string> {
  let set = holidaysByYear.get(year);
  if (!set) {
    // The package builds its dates at UTC midnight.
    set = new Set(allForYear(year).map((h) => h.date.toISOString().slice(0, 10)));
    holidaysByYear.set(year, set);
  }
  return set;
}

const dayOf = (iso: string) => new Date(`${iso}T00:00:00Z`);

export function isBusinessDay(iso: string): boolean {
  const d = dayOf(iso);
  const weekday = d.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  // A holiday observed on Dec 31 belongs to the next year's list (New Year's Day on a Saturday).
  const year = d.getUTCFullYear();
  return !holidaysOf(year).has(iso) && !holidaysOf(year + 1).has(iso);
}

/** The date `n` (>= 0) business days after `date`: 5 after a Friday is the next Friday, holidays skipped. */
export function addBusinessDays(date: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`addBusinessDays: n must be a whole number >= 0, got ${n}`);
  const d = dayOf(date);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (isBusinessDay(d.toISOString().slice(0, 10))) left -= 1;
  }
  return d.toISOString().slice(0, 10);
}
