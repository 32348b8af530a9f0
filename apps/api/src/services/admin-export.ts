import { Readable } from 'node:stream';
import { type DealerExportRow, dealerExportBatch, type ExportCursor } from '@dn/db/queries/admin-export';
import { type CsvValue, csvLine } from '../lib/csv';
import type { Context, User } from '../trpc/context';
import { audit } from './audit';

/** The dealers CSV: header row, then one row per dealer, newest first. Never a password hash. */
export const EXPORT_COLUMNS: [header: string, value: (r: DealerExportRow) => CsvValue][] = [
  ['ID', (r) => r.id],
  ['Created At', (r) => r.createdAt],
  ['Full Name', (r) => r.fullName],
  ['Company Name', (r) => r.companyName],
  ['Email', (r) => r.email],
  ['Phone', (r) => r.phoneE164],
  ['Tier', (r) => r.tier],
  ['Status', (r) => r.status],
  ['Access Granted', (r) => r.accessGranted],
  ['Approval Date', (r) => r.approvalDate],
  ['Approved By', (r) => r.approvedBy],
  ['Rejection Reason', (r) => r.rejectionReason],
  ['Recruiter ID', (r) => r.recruiterId],
  ['Referral Type', (r) => r.referralType],
  ['Referred By', (r) => r.referredByName],
  ['Street', (r) => r.street],
  ['City', (r) => r.city],
  ['State', (r) => r.state],
  ['ZIP Code', (r) => r.zipCode],
  ['Country', (r) => r.country],
  ['Entity Type', (r) => r.entityType],
  ['Licensed Installers', (r) => r.licensedInstallers],
  ['Crew Count', (r) => r.crewCount],
  ['Sales Reps', (r) => r.salesReps],
  ['Monthly Volume', (r) => r.monthlyVolume],
  ['CRM', (r) => r.crmName],
  ['Product Focus', (r) => r.productVerticals],
  ['Total Orders', (r) => r.totalOrders],
  ['Total Revenue', (r) => r.totalRevenue],
  ['Last Order Date', (r) => r.lastOrderDate],
];

export const EXPORT_BATCH = 2_000;

export const exportFileName = (now = new Date()) => `dealers-export-${now.toISOString().slice(0, 10)}.csv`;

/**
 * Streams the CSV in keyset batches: memory holds one batch however many dealers there are,
 * a connection is held only while a batch is read, and when the client goes away the stream is
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
    // A BOM lets spreadsheet programs read the file as UTF-8.
    yield `\uFEFF${csvLine(EXPORT_COLUMNS.map(([h]) => h))}`;
    let cursor: ExportCursor | null = null;
    let rows = 0;
    for (;;) {
      const batch = await dealerExportBatch(db, cursor, EXPORT_BATCH);
      if (batch.length === 0) break;
      let chunk = '';
      for (const r of batch) chunk += csvLine(EXPORT_COLUMNS.map(([, value]) => value(r)));
      rows += batch.length;
      yield chunk;
      const last = batch[batch.length - 1]!;
      cursor = { createdAt: last.cursorAt, id: last.id };
      if (batch.length < EXPORT_BATCH) break;
    }
    log.info({ rows }, 'dealers export finished');
  }
  return Readable.from(lines(), { objectMode: false, highWaterMark: 64 * 1024 });
}
