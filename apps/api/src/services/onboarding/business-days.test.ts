import { describe, expect, it } from 'vitest';
import { addBusinessDays, isBusinessDay } from './business-days';

describe('addBusinessDays', () => {
  it('skips weekends', () => {
    expect(addBusinessDays('2026-12-04', 5)).toBe('2026-12-11'); // Friday -> next Friday
    expect(addBusinessDays('2026-12-05', 1)).toBe('2026-12-07'); // Saturday -> Monday
    expect(addBusinessDays('2026-12-07', 0)).toBe('2026-12-07');
  });
  it('skips observed federal holidays', () => {
    // Thanksgiving 2026 is Thursday Nov 26; Christmas 2026 Friday Dec 25.
    expect(isBusinessDay('2026-11-26')).toBe(false);
    expect(addBusinessDays('2026-11-25', 1)).toBe('2026-11-27');
    expect(addBusinessDays('2026-12-21', 5)).toBe('2026-12-29');
    // July 4 2026 is a Saturday, observed Friday July 3.
    expect(isBusinessDay('2026-07-03')).toBe(false);
    // Jan 1 2028 is a Saturday: observed Friday Dec 31 2027.
    expect(isBusinessDay('2027-12-31')).toBe(false);
    expect(isBusinessDay('2027-12-30')).toBe(true);
  });
  it('refuses a negative count', () => {
    expect(() => addBusinessDays('2026-12-01', -1)).toThrow(RangeError);
  });
});
