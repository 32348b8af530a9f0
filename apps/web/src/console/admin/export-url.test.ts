import type { DealersSearch } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { ALL, exportUrl, inListOrder } from './export-url';

describe('exportUrl', () => {
  it('is the plain export for the whole list with every column', () => {
    expect(exportUrl({}, ALL)).toBe('/api/admin/dealers/export');
    // A param the export does not know (the former tab bar's) is not carried either.
    expect(exportUrl({ tab: 'calls', page: 3 } as DealersSearch, ALL)).toBe('/api/admin/dealers/export');
  });

  it("carries the view's search, tier, status and sort (ascending, as the list sorts) and the picked columns", () => {
    expect(
      exportUrl({ q: 'ann & co', tier: 'Preferred', status: 'pending', sort: 'email', page: 2 }, [
        'companyName',
        'email',
      ]),
    ).toBe(
      '/api/admin/dealers/export?q=ann+%26+co&tier=Preferred&status=pending&sort=email&dir=asc&columns=companyName%2Cemail',
    );
    expect(exportUrl({ q: 'x' }, ALL)).toBe('/api/admin/dealers/export?q=x');
  });

  it('keeps picked columns in the list order', () => {
    expect(inListOrder(['email', 'id', 'nope', 'fullName'])).toEqual(['id', 'fullName', 'email']);
  });
});
