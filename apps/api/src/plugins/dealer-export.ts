import { dealerExportQuery } from '@dn/schema';
import { assertAccess } from '../access';
import type { RestRoute } from '../rest/route';
import { exportDealersCsv, exportFileName } from '../services/dealers/export';
import { createRequestContext } from './auth';

/**
 * A file download (headers: plugins/security.ts): a streamed file cannot be a procedure's JSON
 * answer. The admin list's search, tier, status and sort, and the chosen columns
 * (docs/decisions/0730-filtered-export.md); no parameter is every dealer and every column.
 */
export const dealerExportRoute: RestRoute = {
  method: 'GET',
  url: '/api/admin/dealers/export',
  access: 'admin',
  // Personal data: not for a viewer (docs/decisions/0610-admin-roles.md).
  role: 'reviewer',
  summary:
    'Streams the dealers as CSV (dealers-export-yyyy-mm-dd.csv): the list filter (q, tier, status, sort, dir) and columns (comma-separated keys)',
  input: dealerExportQuery,
  responds: 'text/csv attachment',
  async handle({ deps, req, reply }) {
    const ctx = await createRequestContext(deps, req, reply);
    assertAccess(ctx.user, 'admin', dealerExportRoute.role);
    // Refused before anything is written or audited: a bad parameter is a 400 with its message.
    const query = dealerExportQuery.parse(req.query ?? {});
    const stream = await exportDealersCsv({ ...ctx, user: ctx.user }, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName()}"`)
      .send(stream);
  },
};
