import { activityExportQuery, dealerExportQuery, payoutId } from '@dn/schema';
import { activityFileName, exportActivityCsv } from '../services/audit/activity';
import { exportPayoutCsv } from '../services/commissions/payouts';
import { exportDealersCsv, exportFileName } from '../services/dealers/export';
import { csvDownload } from './csv';

/**
 * The CSV downloads. The dealers: the admin list's search, tier, status and sort, and the chosen
 * columns (docs/decisions/0730-filtered-export.md); no parameter is every dealer and every column.
 * Personal data: not for a viewer (docs/decisions/0610-admin-roles.md).
 */
export const dealerExportRoute = csvDownload({
  url: '/api/admin/dealers/export',
  operationId: 'admin.exportDealers',
  role: 'reviewer',
  summary:
    'Streams the dealers as CSV (dealers-export-yyyy-mm-dd.csv): the list filter (q, tier, status, sort, dir) and columns (comma-separated keys)',
  input: dealerExportQuery,
  file: async (ctx, query) => ({ fileName: exportFileName(), body: await exportDealersCsv(ctx, query) }),
});

/** A payout batch: payouts are the owner's (decision 0610). */
export const payoutExportRoute = csvDownload({
  url: '/api/admin/payouts/:id/export',
  operationId: 'commissions.exportPayout',
  role: 'owner',
  summary: 'A payout batch as CSV: recruiter, recruiter id, email, amount, commission count, batch id',
  params: payoutId,
  file: (ctx, _query, { id }) => exportPayoutCsv(ctx, id),
});

/** The Activity tab's filters: IPs and user agents are personal data, not for a viewer (decision 0610). */
export const activityExportRoute = csvDownload({
  url: '/api/admin/activity/export',
  operationId: 'activity.export',
  role: 'reviewer',
  summary: 'The audit trail as CSV, with the Activity filters (actor, eventType, dealerId, from, to)',
  input: activityExportQuery,
  file: async (ctx, query) => ({ fileName: activityFileName(), body: await exportActivityCsv(ctx, query) }),
});
