import { getExportColumns, setExportColumns } from '@dn/db/queries/admin-preferences';
import { DEALER_EXPORT_COLUMN_KEYS, type DealerExportColumn } from '@dn/schema';
import type { Context, User } from '../../context';

export interface ExportColumnsPreference {
  /** The columns the admin's column picker starts with, in file order. */
  columns: DealerExportColumn[];
  /** False when the admin never chose (every column). */
  saved: boolean;
}

const KNOWN = new Set<string>(DEALER_EXPORT_COLUMN_KEYS);

/**
 * The admin's remembered choice for the dealers CSV. A column since removed from the list is
 * dropped; nothing left (or never chosen) is every column.
 */
export async function readExportColumns(ctx: Context & { user: User }): Promise<ExportColumnsPreference> {
  const stored = await getExportColumns(ctx.db, ctx.user.id);
  const columns = (Array.isArray(stored) ? stored : []).filter((c): c is DealerExportColumn => KNOWN.has(c));
  return columns.length > 0 ? { columns, saved: true } : { columns: [...DEALER_EXPORT_COLUMN_KEYS], saved: false };
}

/** Remembers the admin's choice (validated by @dn/schema's exportColumnList); answers it as read back. */
export async function saveExportColumns(
  ctx: Context & { user: User },
  columns: readonly DealerExportColumn[],
): Promise<ExportColumnsPreference> {
  await setExportColumns(ctx.db, ctx.user.id, columns);
  return { columns: [...columns], saved: true };
}
