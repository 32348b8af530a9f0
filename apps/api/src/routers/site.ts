import { router } from '../trpc/init';

/** Public site procedures (issue: public site). */
export const siteRouter = router({});
