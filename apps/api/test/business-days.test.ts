import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  addDays,
  businessDaysBetween,
  isBusinessDay,
  localDate,
  localParts,
} from '../src/lib/business-days';

/**
 * An independent calendar (issue 38): the US federal holidays computed here from their rules
 * (5 U.S.C. 6103 and the observance rule for weekends), not from the package the helper uses.
 */
const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();
/** The `nth` (1-based) `dow` of a month; nth = -1: the last. */
function nthWeekday(y: number, m: number, dow: number, nth: number): string {
  if (nth > 0) {
    const first = (dow - weekday(y, m, 1) + 7) % 7;
    return iso(y, m, 1 + first + (nth - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return iso(y, m, lastDay - ((weekday(y, m, lastDay) - dow + 7) % 7));
}
/** A fixed-date holiday as observed: Saturday -> Friday, Sunday -> Monday. */
function observed(y: number, m: number, d: number): string {
  const w = weekday(y, m, d);
  return iso(y, m, w === 6 ? d - 1 : w === 0 ? d + 1 : d);
}
function independentHolidays(years: number[]): Set<string> {
  const s = new Set<string>();
  for (const y of years) {
    s.add(observed(y, 1, 1));
    s.add(nthWeekday(y, 1, 1, 3)); // Martin Luther King Jr.: third Monday of January
    s.add(nthWeekday(y, 2, 1, 3)); // Washington's Birthday: third Monday of February
    s.add(nthWeekday(y, 5, 1, -1)); // Memorial Day: last Monday of May
    s.add(observed(y, 6, 19)); // Juneteenth
    s.add(observed(y, 7, 4));
    s.add(nthWeekday(y, 9, 1, 1)); // Labor Day: first Monday of September
    s.add(nthWeekday(y, 10, 1, 2)); // Columbus Day: second Monday of October
    s.add(observed(y, 11, 11));
    s.add(nthWeekday(y, 11, 4, 4)); // Thanksgiving: fourth Thursday of November
    s.add(observed(y, 12, 25));
  }
  return s;
}
const HOLIDAYS = independentHolidays([2025, 2026, 2027, 2028, 2029]);
const isWorkday = (d: string) => {
  const w = new Date(`${d}T00:00:00Z`).getUTCDay();
  return w !== 0 && w !== 6 && !HOLIDAYS.has(d);
};
const DAYS: string[] = [];
for (let d = '2026-01-01'; d <= '2028-12-31'; d = addDays(d, 1)) DAYS.push(d);

describe('business days', () => {
  it('agrees with the independent calendar on every day of 2026-2028', () => {
    expect(DAYS).toHaveLength(365 + 365 + 366);
    const differ = DAYS.filter((d) => isBusinessDay(d) !== isWorkday(d));
    expect(differ).toEqual([]);
    // The observed shifts the years hold: New Year's Day 2028 (a Saturday) on Friday 2027-12-31,
    // Independence Day 2026 (a Saturday) on Friday 2026-07-03, Christmas 2027 (a Saturday) on the 24th.
    expect(isBusinessDay('2027-12-31')).toBe(false);
    expect(isBusinessDay('2026-07-03')).toBe(false);
    expect(isBusinessDay('2027-12-24')).toBe(false);
    expect(isBusinessDay('2026-11-27')).toBe(true); // the day after Thanksgiving is not a federal holiday
  });

  it('adds and counts business days as a walk over the independent calendar does', () => {
    const day = fc.constantFrom(...DAYS);
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 40 }), (start, n) => {
        let d = start;
        for (let left = n; left > 0; ) {
          d = addDays(d, 1);
          if (isWorkday(d)) left--;
        }
        expect(addBusinessDays(start, n)).toBe(d);
        expect(businessDaysBetween(start, d)).toBe(n);
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(day, day, (from, to) => {
        const expected = DAYS.filter((d) => d > from && d <= to && isWorkday(d)).length;
        expect(businessDaysBetween(from, to)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('takes the calendar date in the business time zone', () => {
    // 02:30 UTC on a Saturday is still Friday evening in New York.
    const instant = new Date('2026-12-05T02:30:00Z');
    expect(localDate(instant, 'America/New_York')).toBe('2026-12-04');
    expect(localDate(instant, 'UTC')).toBe('2026-12-05');
    expect(localParts(new Date('2026-07-01T12:00:00Z'), 'America/Los_Angeles')).toEqual({
      date: '2026-07-01',
      hour: 5,
      minute: 0,
    });
    // Three business days after a Friday submission in New York: Wednesday.
    expect(addBusinessDays(localDate(instant, 'America/New_York'), 3)).toBe('2026-12-09');
  });
});
