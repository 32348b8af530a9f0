import type { DealersSearch } from '@dn/schema';
import { DEALER_EXPORT_COLUMNS, type DealerExportColumn } from '@dn/schema';

/** Every column of the dealers CSV, in the list's order. */
export const ALL = DEALER_EXPORT_COLUMNS.map((c) => c.key) as DealerExportColumn[];
/** The picked columns in the list's order: the file keeps its usual layout (decision 0730). */
export const inListOrder = (picked: readonly string[]) => ALL.filter((k) => picked.includes(k));

/**
 * The export URL for the view in the URL (search, tier, status, sort as the list has them) and
 * the picked columns; no parameter at all for the whole list with every column.
 */
export function exportUrl(search: DealersSearch, columns: readonly DealerExportColumn[]) {
  const params = new URLSearchParams();
  if (search.q) params.set('q', search.q);
  if (search.tier) params.set('tier', search.tier);
  if (search.status) params.set('status', search.status);
  if (search.sort) {
    params.set('sort', search.sort);
    // The list's direction for a sort (DealersTab): by name, company, ... ascending.
    params.set('dir', 'asc');
  }
  if (columns.length !== ALL.length) params.set('columns', columns.join(','));
  const qs = params.toString();
  return `/api/admin/dealers/export${qs ? `?${qs}` : ''}`;
}
