import { sweepStates } from '../services/scheduler/scheduler';
import { adminProcedure, rest, router } from '../trpc/init';

/** The durable scheduler's state (issue 38): the console's Scheduler section. */
export const schedulerRouter = router({
  sweeps: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/scheduler/sweeps',
        'Each periodic task (sweep): next run, last run, last error, consecutive failures',
      ),
    )
    .query(({ ctx }) => sweepStates(ctx)),
});
