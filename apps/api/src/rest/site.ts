import type { RestRoute } from './route';

/** Public site: signup, call booking, tracking, videos, public dealer list (issue: public site). */
export const siteRoutes: RestRoute[] = [];
