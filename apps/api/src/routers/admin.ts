import { router } from '../trpc/init';

/** The admin console (issue: admin console). Every procedure here is an adminProcedure. */
export const adminRouter = router({});
