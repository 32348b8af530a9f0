import { activitySearch, dealersSearch } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { parseSearch } from '../shared/use-section-search';
import { legacyTabTarget } from './legacy-tabs';

const dealers = (raw: Record<string, unknown>) => parseSearch(dealersSearch, raw);

describe('the Dealers section search', () => {
  it('keeps known values and leaves defaults out', () => {
    expect(dealers({ q: '  ann ', status: 'pending', tier: 'Preferred', sort: 'email', page: 3 })).toEqual({
      q: 'ann',
      status: 'pending',
      tier: 'Preferred',
      sort: 'email',
      page: 3,
    });
    expect(dealers({ sort: 'createdAt', page: 1, q: '  ' })).toEqual({
      q: undefined,
      status: undefined,
      tier: undefined,
      sort: undefined,
      page: undefined,
    });
  });

  it('turns unknown or malformed values into undefined, every key present', () => {
    const out = dealers({ status: 'bogus', tier: {}, sort: 'password', page: -3, q: ['a'] });
    for (const key of ['q', 'status', 'tier', 'sort', 'page']) {
      expect(key in out).toBe(true);
      expect(out[key as keyof typeof out]).toBeUndefined();
    }
    expect(dealers({ page: 2.5 }).page).toBeUndefined();
    expect(dealers({ page: '4' }).page).toBe(4);
  });

  it('reads a number-looking search as text', () => {
    expect(dealers({ q: 123 }).q).toBe('123');
  });
});

describe('links of the former tab bar', () => {
  it('go to the section the tab became, with its params', () => {
    expect(legacyTabTarget({ tab: 'calls', q: 'x' })).toEqual({ to: '/admin/calls', search: {} });
    expect(legacyTabTarget({ tab: 'commissions' })).toEqual({ to: '/admin/commissions', search: {} });
    expect(legacyTabTarget({ tab: 'videos' })?.to).toBe('/admin/content');
    const dealer = '0b3f1c9e-1d2a-4c5b-9e8f-7a6b5c4d3e2f';
    expect(legacyTabTarget({ tab: 'activity', dealer, q: 'x' })).toEqual({ to: '/admin/activity', search: { dealer } });
    expect(parseSearch(activitySearch, { dealer }).dealer).toBe(dealer);
  });

  it('an unknown or the dealers tab is the Dealers section, its filters kept; no tab is no redirect', () => {
    expect(legacyTabTarget({ tab: 'x', status: 'pending' })).toEqual({ to: '/admin', search: { status: 'pending' } });
    expect(legacyTabTarget({ tab: 'dealers', q: 'ann' })).toEqual({ to: '/admin', search: { q: 'ann' } });
    expect(legacyTabTarget({ q: 'ann' })).toBeNull();
  });
});
