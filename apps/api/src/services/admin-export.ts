import { Readable } from 'node:stream';
import { DEALER_EXPORT_COLUMNS, dealerExportBatch, type ExportCursor } from '@dn/db/queries/admin-export';
import { csvLine } from '../lib/csv';
import type { Context, User } from '../trpc/context';
import { audit } from './audit';

export const EXPORT_BATCH = 5_000;

export const exportFileName = (now = new Date()) => `dealers-export-${now.toISOString().slice(0, 10)}.csv`;

/**
 * The dealers CSV (header row, then one row per dealer, newest first; columns in
 * @dn/db/queries/admin-export), streamed in keyset batches: memory holds one batch however
 * many dealers there are, a connection is held only while a batch is read, and when the client goes away the stream is
 * destroyed, the generator returns and no further batch is read.
 */
export async function exportDealersCsv(ctx: Context & { user: User }): Promise<Readable> {
  await audit(ctx.db, ctx, {
    eventType: 'dealers.exported',
    category: 'admin',
    message: `${ctx.user.username} exported the dealers CSV`,
  });
  const db = ctx.db;
  const log = ctx.log;
  async function* lines() {
    let rows = 0;
    // The next batch is read while the current one is written: the database and the client
    // work at the same time, and at most two batches are in memory.
    let next = dealerExportBatch(db, null, EXPORT_BATCH);
    try {
      // A BOM lets spreadsheet programs read the file as UTF-8.
      yield `\uFEFF${csvLine(DEALER_EXPORT_COLUMNS.map(([h]) => h))}`;
      for (;;) {
        const batch = await next;
        if (batch.length === 0) break;
        const last = batch[batch.length - 1]!;
        const more = batch.length === EXPORT_BATCH;
        if (more) {
          const cursor: ExportCursor = { createdAt: last.cursorAt, id: last.id };
          next = dealerExportBatch(db, cursor, EXPORT_BATCH);
        }
        let chunk = '';
        for (const r of batch) chunk += `${r.line}\r\n`;
        rows += batch.length;
        yield chunk;
        if (!more) break;
      }
      log.info({ rows }, 'dealers export finished');
    } finally {
      // The client went away: the batch in flight finishes and returns its connection; its
      // result (or error) is no longer wanted.
      next.catch(() => undefined);
    }
  }
  return Readable.from(lines(), { objectMode: false, highWaterMark: 64 * 1024 });
}
