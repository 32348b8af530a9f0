import { assertAccess } from '../access';
import type { RestRoute } from '../rest/route';
import { exportDealersCsv, exportFileName } from '../services/dealers/export';
import { createRequestContext } from './auth';

/** The one hand-written route: a streamed file cannot be a procedure's JSON answer (headers: plugins/security.ts). */
export const dealerExportRoute: RestRoute = {
  method: 'GET',
  url: '/api/admin/dealers/export',
  access: 'admin',
  // Personal data: not for a viewer (docs/decisions/0610-admin-roles.md).
  role: 'reviewer',
  summary: 'Streams every dealer as CSV (dealers-export-yyyy-mm-dd.csv)',
  responds: 'text/csv attachment',
  async handle({ deps, req, reply }) {
    const ctx = await createRequestContext(deps, req, reply);
    assertAccess(ctx.user, 'admin', dealerExportRoute.role);
    const stream = await exportDealersCsv({ ...ctx, user: ctx.user });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName()}"`)
      .send(stream);
  },
};
