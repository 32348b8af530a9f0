import type { RestRoute } from './route';

/** The admin console (issue: admin console). */
export const adminRoutes: RestRoute[] = [];
