import { IMPORT_COLUMNS, IMPORT_DEALER_COLUMNS, IMPORT_MAX_ROWS, parseCsv, webhookOrder } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError, toAppError } from '../../lib/app-error';
import { orderEvent, recordOrder } from './record';

/**
 * CSV import of orders (source 'import'): a header row, then one order per row, each recorded
 * in its own transaction like a webhook event. Rows already imported are skipped; rejected rows
 * come back with their line and reason, so the console can offer them as a report.
 */

export interface ImportResult {
  rows: number;
  imported: number;
  skipped: number;
  rejected: { line: number; orderId: string; reason: string }[];
}

export async function importOrders(ctx: Context & { user: User }, csv: string): Promise<ImportResult> {
  const table = parseCsv(csv);
  if (!table) throw new AppError('INVALID_INPUT', 'The CSV has a quoted field that never closes');
  const [header, ...rows] = table;
  if (!header) throw new AppError('INVALID_INPUT', 'The CSV is empty');
  const cols = header.map((h) => h.trim());
  const missing = IMPORT_COLUMNS.filter((c) => !cols.includes(c));
  if (missing.length)
    throw new AppError('INVALID_INPUT', `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  if (!IMPORT_DEALER_COLUMNS.some((c) => cols.includes(c))) {
    throw new AppError('INVALID_INPUT', `One of the columns ${IMPORT_DEALER_COLUMNS.join(', ')} is required`);
  }
  if (rows.length > IMPORT_MAX_ROWS)
    throw new AppError('INVALID_INPUT', `Send at most ${IMPORT_MAX_ROWS} rows per request`);

  const result: ImportResult = { rows: rows.length, imported: 0, skipped: 0, rejected: [] };
  for (const [i, row] of rows.entries()) {
    const line = i + 2;
    const raw: Record<string, string> = {};
    cols.forEach((c, j) => {
      const v = row[j]?.trim();
      if (v) raw[c] = v;
    });
    const parsed = webhookOrder.safeParse({
      orderId: raw.orderId,
      dealerId: raw.dealerId,
      dealerEmail: raw.dealerEmail,
      externalCrmId: raw.externalCrmId,
      amount: raw.amount,
      orderedAt: raw.orderedAt,
      ...(raw.status ? { status: raw.status } : {}),
      ...(raw.eventAt ? { eventAt: raw.eventAt } : {}),
    });
    if (!parsed.success) {
      result.rejected.push({
        line,
        orderId: raw.orderId ?? '',
        reason: parsed.error.issues[0]?.message ?? 'Invalid row',
      });
      continue;
    }
    const o = parsed.data;
    try {
      const differentOrder = /^(true|yes|1)$/i.test(raw.differentOrder ?? '');
      const r = await recordOrder(ctx, { ...orderEvent('import', o), differentOrder });
      if (r.created || r.statusChanged) result.imported++;
      else result.skipped++;
    } catch (err) {
      const known = toAppError(err);
      if (!known || known.code === 'UNAVAILABLE') throw err;
      result.rejected.push({ line, orderId: o.orderId, reason: known.message });
    }
  }
  return result;
}
