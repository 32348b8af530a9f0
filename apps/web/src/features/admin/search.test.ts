import { describe, expect, it } from 'vitest';
import { validateAdminSearch } from './search';

describe('validateAdminSearch', () => {
  it('keeps known values and leaves defaults out', () => {
    expect(
      validateAdminSearch({ tab: 'calls', q: '  ann ', status: 'pending', tier: 'Preferred', sort: 'email', page: 3 }),
    ).toEqual({ tab: 'calls', q: 'ann', status: 'pending', tier: 'Preferred', sort: 'email', page: 3 });
    expect(validateAdminSearch({ tab: 'dealers', sort: 'createdAt', page: 1, q: '  ' })).toEqual({
      tab: undefined,
      q: undefined,
      status: undefined,
      tier: undefined,
      sort: undefined,
      page: undefined,
    });
  });

  it('turns unknown or malformed values into undefined, every key present', () => {
    const out = validateAdminSearch({ tab: 'x', status: 'bogus', tier: {}, sort: 'password', page: -3, q: ['a'] });
    for (const key of ['tab', 'q', 'status', 'tier', 'sort', 'page']) {
      expect(key in out).toBe(true);
      expect(out[key as keyof typeof out]).toBeUndefined();
    }
    expect(validateAdminSearch({ page: 2.5 }).page).toBeUndefined();
    expect(validateAdminSearch({ page: '4' }).page).toBe(4);
  });

  it('reads a number-looking search as text', () => {
    expect(validateAdminSearch({ q: 123 }).q).toBe('123');
  });
});
