import type { RestRoute } from './route';

/** Accounts and the dealer portal (issue: accounts). */
export const accountRoutes: RestRoute[] = [];
