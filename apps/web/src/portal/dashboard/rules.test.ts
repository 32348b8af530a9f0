import { describe, expect, it } from 'vitest';
import { showsFirstOrderCard } from './rules';

const form = (formUrl: string | null, isRequired: boolean) => ({ tier: 'Affiliate' as const, formUrl, isRequired });
const url = 'https://docs.google.com/forms/d/e/x/viewform?embedded=true';

describe('first-order card rules (SPEC section 2)', () => {
  it('shows only for approved dealers', () => {
    for (const status of ['pending', 'active', 'rejected', 'inactive', 'suspended'] as const) {
      expect(showsFirstOrderCard({ status, tier: 'Preferred' }, form(url, true))).toBe(false);
    }
    expect(showsFirstOrderCard({ status: 'approved', tier: 'Preferred' }, form(url, true))).toBe(true);
    expect(showsFirstOrderCard({ status: 'approved', tier: 'Authorized' }, form(null, true))).toBe(true);
  });

  it('shows for an Affiliate only when the form is required and has a URL', () => {
    const affiliate = { status: 'approved' as const, tier: 'Affiliate' as const };
    expect(showsFirstOrderCard(affiliate, form(url, true))).toBe(true);
    expect(showsFirstOrderCard(affiliate, form(url, false))).toBe(false);
    expect(showsFirstOrderCard(affiliate, form(null, true))).toBe(false);
    expect(showsFirstOrderCard(affiliate, undefined)).toBe(false);
  });
});
