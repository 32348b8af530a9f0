import { systemOverview } from '../services/system/overview';
import { adminProcedure, rest, router } from '../trpc/init';

/** The admin's System page (issue 40); the same figures for machines are GET /metrics (http/metrics.ts). */
export const systemRouter = router({
  overview: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/system',
        'Queue depths, the latest failed emails with their errors, the latest backups and the last 24 hours of samples',
      ),
    )
    .query(({ ctx }) => systemOverview(ctx)),
});
