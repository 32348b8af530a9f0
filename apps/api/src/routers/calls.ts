import { callManageToken, rescheduleCallInput, scheduleCall, setCallStatusInput } from '@dn/schema';
import { scheduleCall as bookCall } from '../services/calls/booking';
import { callByManageToken, cancelCallByToken, rescheduleCallByToken } from '../services/calls/manage';
import { callSchedulesVersion, listCallSchedules, setCallStatus } from '../services/calls/status';
import { adminProcedure, alone, publicProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/** Calls: the site's booking, the admin's list and status changes. */

/** Part of `site.*`: booking a call. */
export const callsSite = router({
  scheduleCall: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/schedule-call', 'Books a free 15-minute call; emails a confirmation with an .ics file'))
    .input(scheduleCall)
    .mutation(({ ctx, input }) => bookCall(ctx, input)),
  // Issue 38: the reminder's one-time link, without signing in.
  callByLink: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/calls/manage/{token}',
        "The call a reminder's reschedule/cancel link opens (404 once used or expired)",
      ),
    )
    .input(callManageToken)
    .query(({ ctx, input }) => callByManageToken(ctx, input.token)),
  cancelCallByLink: publicProcedure
    .meta(rest('POST', '/api/calls/manage/{token}/cancel', "Cancels the call with the reminder's one-time link"))
    .input(callManageToken)
    .mutation(({ ctx, input }) => cancelCallByToken(ctx, input.token)),
  rescheduleCallByLink: publicProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/calls/manage/{token}/reschedule',
        "Moves the call to another date and window with the reminder's one-time link; emails a new confirmation",
      ),
    )
    .input(rescheduleCallInput)
    .mutation(({ ctx, input }) => rescheduleCallByToken(ctx, input)),
});

/** Part of `admin.*`: the call requests and their status. */
export const callsAdmin = router({
  callSchedules: adminProcedure
    .meta({
      ...rest(
        'GET',
        '/api/call-schedules',
        'Call requests: scheduled first (soonest first), then completed and cancelled',
      ),
      version: callSchedulesVersion,
    })
    .query(({ ctx }) => listCallSchedules(ctx)),
  setCallStatus: reviewerProcedure
    .meta(
      rest('POST', '/api/admin/call-schedules/{id}/status', 'Marks a call request scheduled, completed or cancelled'),
    )
    .input(setCallStatusInput)
    .mutation(({ ctx, input }) => setCallStatus(ctx, input.id, input.status)),
});
