import { router } from '../trpc/init';

/** Accounts and the dealer portal (issue: accounts). */
export const accountRouter = router({});
