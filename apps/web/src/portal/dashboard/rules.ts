import type { DealerInfo, FirstOrderForm } from './types';

/**
 * SPEC section 2: only for an approved dealer; for Affiliate only when the form is required
 * and has a URL (decision 0203).
 */
export function showsFirstOrderCard(info: Pick<DealerInfo, 'status' | 'tier'>, form: FirstOrderForm | undefined) {
  if (info.status !== 'approved' || !form) return false;
  if (info.tier === 'Affiliate') return form.isRequired && Boolean(form.formUrl);
  return true;
}
