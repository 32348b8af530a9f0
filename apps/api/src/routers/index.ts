import { createCallerFactory, mergeRouters, router } from '../trpc/init';
import { accountsAccount, authRouter, settingsRouter } from './accounts';
import { activityRouter } from './activity';
import { affiliateAccount, affiliateAdmin, affiliateSite } from './affiliate';
import { apiTokensRouter } from './api-tokens';
import { applicationsSite, statusLinksRouter } from './applications';
import { callsAdmin, callsSite } from './calls';
import { commissionsRouter } from './commissions';
import { contentAccount, contentAdmin, contentSite } from './content';
import { dealersAccount, dealersAdmin } from './dealers';
import { jobsRouter } from './jobs';
import { onboardingRouter } from './onboarding';
import { ordersRouter } from './orders';
import { payeesRouter } from './payees';
import { reviewAdmin, reviewRouter } from './review';
import { riskRouter } from './risk';
import { schedulerRouter } from './scheduler';
import { scorecardsRouter } from './scorecards';
import { systemRouter } from './system';
import { teamRouter } from './team';

/**
 * Each file of routers/ holds one domain's procedures, as services/ does. The wire names the web
 * app and the REST table were built on stay as they were: `site`, `account` and `admin` are each
 * the merge of the domains' parts (docs/decisions/0850-routers-by-domain.md). A new domain gets
 * its own namespace.
 */
export const appRouter = router({
  auth: authRouter,
  site: mergeRouters(callsSite, applicationsSite, affiliateSite, contentSite),
  account: mergeRouters(accountsAccount, dealersAccount, contentAccount, affiliateAccount),
  admin: mergeRouters(callsAdmin, affiliateAdmin, dealersAdmin, reviewAdmin, contentAdmin),
  orders: ordersRouter,
  commissions: commissionsRouter,
  team: teamRouter,
  activity: activityRouter,
  review: reviewRouter,
  statusLinks: statusLinksRouter,
  scheduler: schedulerRouter,
  settings: settingsRouter,
  onboarding: onboardingRouter,
  apiTokens: apiTokensRouter,
  system: systemRouter,
  payees: payeesRouter,
  risk: riskRouter,
  jobs: jobsRouter,
  scorecards: scorecardsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
