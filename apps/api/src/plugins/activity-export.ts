import { activityExportQuery } from '@dn/schema';
import { assertAccess } from '../access';
import type { RestRoute } from '../rest/route';
import { activityFileName, exportActivityCsv } from '../services/audit/activity';
import { createRequestContext } from './auth';

/** GET /api/admin/activity/export: the Activity tab's filters as a streamed CSV (a file, not a procedure's JSON). */
export const activityExportRoute: RestRoute = {
  method: 'GET',
  url: '/api/admin/activity/export',
  access: 'admin',
  // IPs and user agents are personal data: not for a viewer (docs/decisions/0610-admin-roles.md).
  role: 'reviewer',
  summary: 'The audit trail as CSV, with the Activity filters (actor, eventType, dealerId, from, to)',
  input: activityExportQuery,
  responds: 'text/csv attachment',
  async handle({ deps, req, reply }) {
    const ctx = await createRequestContext(deps, req, reply);
    assertAccess(ctx.user, 'admin', activityExportRoute.role);
    const query = activityExportQuery.parse(req.query ?? {});
    const stream = await exportActivityCsv({ ...ctx, user: ctx.user }, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${activityFileName()}"`)
      .send(stream);
  },
};
