import { Readable } from 'node:stream';
import {
  type DealerExportPlan,
  dealerExportBatch,
  dealerExportPlan,
  type ExportCursor,
} from '@dn/db/queries/dealers-export';
import type { DealerExportQuery } from '@dn/schema';
import type { Context, User } from '../../context';
import { csvLine, csvLines } from '../../lib/csv';
import { audit } from '../audit/audit';

export const EXPORT_BATCH = 1_000;

/** No parameter: every dealer, every column, newest first (the file as it always was). */
const EVERYTHING: DealerExportQuery = { sort: 'createdAt', dir: 'desc' };

/**
 * One batch of dealers as CSV lines, written as soon as it arrives (not when the client asks
 * for it): its thousands of cell strings die young and cheap, and what waits for the client
 * is one buffer outside the JavaScript heap. `next` is null after the last batch.
 */
async function csvBatch(db: Context['db'], plan: DealerExportPlan, after: ExportCursor | null) {
  const batch = await dealerExportBatch(db, plan, after, EXPORT_BATCH);
  const rows = batch.rows.length;
  const chunk = csvLines(batch.rows, plan.fields);
  // Through pg's promise API (Kysely's), a finished query's result stays reachable until a full
  // collection (pg's callback API does not do this): the rows would outlive the young-generation
  // collections and pile up in the old one, tens of MB per download. Emptying the array lets a
  // young collection free them.
  batch.rows.length = 0;
  return { chunk, rows, next: rows === EXPORT_BATCH ? batch.next : null };
}

export const exportFileName = (now = new Date()) => `dealers-export-${now.toISOString().slice(0, 10)}.csv`;

/**
 * The dealers CSV: a header row, then one row per dealer matching the admin list's search,
 * tier and status, in its sort, with the chosen columns in the chosen order (every column of
 * @dn/schema's DEALER_EXPORT_COLUMNS by default; docs/decisions/0730-filtered-export.md),
 * streamed in keyset batches: memory holds one batch of rows and two of CSV however many
 * dealers there are, a connection is held only while a batch is read, and when the client
 * goes away the stream is destroyed, the generator returns and no further batch is read. The
 * database sends plain text cells and the lines are built here (lib/csv.ts): quoting and
 * neutralising cell by cell cost PostgreSQL more than the rest of the query, and the server
 * does it while PostgreSQL reads the next batch (docs/decisions/0301).
 */
export async function exportDealersCsv(
  ctx: Context & { user: User },
  query: DealerExportQuery = EVERYTHING,
): Promise<Readable> {
  const { columns, ...filter } = query;
  const plan = dealerExportPlan(filter, columns);
  const header = `\uFEFF${csvLine(plan.headers)}`;
  await audit(ctx.db, ctx, {
    eventType: 'dealers.exported',
    category: 'admin',
    message: `${ctx.user.username} exported the dealers CSV`,
    // What left the building: the filter and the columns (none named: every column).
    details: { filter, columns: columns ?? 'all' },
  });
  const db = ctx.db;
  const log = ctx.log;
  async function* chunks() {
    let rows = 0;
    // The next batch is read while the current one is written: the database, this process and
    // the client work at the same time.
    let pending = csvBatch(db, plan, null);
    try {
      // A BOM lets spreadsheet programs read the file as UTF-8.
      yield header;
      for (;;) {
        const batch = await pending;
        if (batch.next) pending = csvBatch(db, plan, batch.next);
        rows += batch.rows;
        // One chunk per batch: the stream asks for the next only when the client has taken
        // enough of this one (backpressure), so a slow client never piles batches up.
        if (batch.rows > 0) yield batch.chunk;
        if (!batch.next) break;
      }
      log.info({ rows }, 'dealers export finished');
    } finally {
      // The client went away: the batch in flight finishes and returns its connection; its
      // result (or error) is no longer wanted.
      pending.catch(() => undefined);
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}
