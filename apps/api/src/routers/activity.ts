import { activityQuery } from '@dn/schema';
import { listActivity, listActivityEventTypes } from '../services/audit/activity';
import { adminProcedure, rest, router } from '../trpc/init';

/** The Activity tab (issue 14). Its CSV is a file download: http/exports.ts. */
export const activityRouter = router({
  list: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/activity',
        'One page of the audit trail, newest first (actor, eventType, dealerId, from, to; cursor from nextCursor)',
      ),
    )
    .input(activityQuery)
    .query(({ ctx, input }) => listActivity(ctx, input)),
  eventTypes: adminProcedure
    .meta(rest('GET', '/api/admin/activity/event-types', 'The event types in the audit trail, for the filter'))
    .query(({ ctx }) => listActivityEventTypes(ctx)),
});
