import { payoutId } from '@dn/schema';
import { assertAccess } from '../access';
import type { RestRoute } from '../rest/route';
import { exportPayoutCsv } from '../services/commissions/payouts';
import { createRequestContext } from './auth';

/** GET /api/admin/payouts/{id}/export: a payout batch as a CSV download (a file, not a procedure's JSON). */
export const payoutExportRoute: RestRoute = {
  method: 'GET',
  url: '/api/admin/payouts/:id/export',
  access: 'admin',
  // Payouts are the owner's (docs/decisions/0610-admin-roles.md).
  role: 'owner',
  summary: 'A payout batch as CSV: recruiter, recruiter id, email, amount, commission count, batch id',
  responds: 'text/csv attachment',
  async handle({ deps, req, reply }) {
    const ctx = await createRequestContext(deps, req, reply);
    assertAccess(ctx.user, 'admin', payoutExportRoute.role);
    const { id } = payoutId.parse(req.params);
    const { fileName, body } = await exportPayoutCsv(ctx, id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(body);
  },
};
