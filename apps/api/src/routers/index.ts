import { createCallerFactory, router } from '../trpc/init';
import { accountRouter } from './account';
import { activityRouter } from './activity';
import { adminRouter } from './admin';
import { authRouter } from './auth';
import { commissionsRouter } from './commissions';
import { ordersRouter } from './orders';
import { reviewRouter } from './review';
import { siteRouter } from './site';
import { statusLinksRouter } from './status-links';
import { teamRouter } from './team';

export const appRouter = router({
  auth: authRouter,
  site: siteRouter,
  account: accountRouter,
  admin: adminRouter,
  orders: ordersRouter,
  commissions: commissionsRouter,
  team: teamRouter,
  activity: activityRouter,
  review: reviewRouter,
  statusLinks: statusLinksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
