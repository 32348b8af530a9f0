import federalHolidays from '@18f/us-federal-holidays';

/**
 * US business days (issue 38, decision 0941): Monday to Friday except the US federal holidays as
 * observed (a Saturday holiday on the Friday before, a Sunday one on the Monday after), from the
 * maintained @18f/us-federal-holidays package (OPM's list), never a hand-typed one. Dates are
 * calendar dates `YYYY-MM-DD` in the business's time zone (`localDate`), so "3 business days after
 * a submission" does not depend on the server's zone.
 */

const holidayYears = new Map<number, Set<string>>();

/** The observed federal holidays that fall in `year` (a Saturday New Year's Day is observed the year before). */
function holidaysOf(year: number): Set<string> {
  let set = holidayYears.get(year);
  if (!set) {
    set = new Set();
    for (const y of [year - 1, year, year + 1]) {
      for (const h of federalHolidays.allForYear(y, { shiftSaturdayHolidays: true, shiftSundayHolidays: true })) {
        if (h.dateString.startsWith(`${year}-`)) set.add(h.dateString);
      }
    }
    holidayYears.set(year, set);
  }
  return set;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(date: string): [number, number, number] {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The date `days` calendar days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function isFederalHoliday(date: string): boolean {
  return holidaysOf(parts(date)[0]).has(date);
}

export function isBusinessDay(date: string): boolean {
  const [y, m, d] = parts(date);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isFederalHoliday(date);
}

/** The `n`th business day after `date` (n ≥ 0; n = 0 is `date` itself, business day or not). */
export function addBusinessDays(date: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`business days to add must be a whole number ≥ 0: ${n}`);
  let d = date;
  for (let left = n; left > 0; ) {
    d = addDays(d, 1);
    if (isBusinessDay(d)) left--;
  }
  return d;
}

/**
 * The business days after `from` up to and including `to` (0 when `to` is not after `from`): an
 * application submitted on `from` is that many business days old on `to`.
 */
export function businessDaysBetween(from: string, to: string): number {
  let n = 0;
  for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (isBusinessDay(d)) n++;
  return n;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The calendar date and the hour and minute of `instant` in `timeZone`. */
export function localParts(instant: Date, timeZone: string): { date: string; hour: number; minute: number } {
  const p = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute) };
}

/** The calendar date of `instant` in `timeZone`. */
export const localDate = (instant: Date, timeZone: string): string => localParts(instant, timeZone).date;

/** The instant it is `hour`:`minute` on `date` in `timeZone` (across a DST change, the hour after the gap). */
export function zonedTime(date: string, hour: number, timeZone: string, minute = 0): Date {
  const [y, m, d] = parts(date);
  const wanted = Date.UTC(y, m - 1, d, hour, minute);
  let guess = wanted;
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(guess), timeZone);
    const [ly, lm, ld] = parts(p.date);
    const shown = Date.UTC(ly, lm - 1, ld, p.hour, p.minute);
    guess += wanted - shown;
  }
  return new Date(guess);
}

/** The instant a wall-clock `date` and `time` ('HH:MM') name in `timeZone`. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [hour, minute] = time.split(':').map(Number);
  return zonedTime(date, hour ?? 0, timeZone, minute ?? 0);
}
