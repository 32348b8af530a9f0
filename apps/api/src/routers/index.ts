import { createCallerFactory, router } from '../trpc/init';
import { accountRouter } from './account';
import { adminRouter } from './admin';
import { authRouter } from './auth';
import { siteRouter } from './site';

export const appRouter = router({
  auth: authRouter,
  site: siteRouter,
  account: accountRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
