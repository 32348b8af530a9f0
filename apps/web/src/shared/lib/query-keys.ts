/**
 * Query keys read both by the pages and by boot.tsx, which seeds them when the app takes over the
 * prerendered landing. Here, not beside their hooks, so the app's entry does not pull the hooks'
 * imports into every page's first download.
 */
export const ME_QUERY_KEY = ['auth', 'user'] as const;
export const LANDING_VIDEOS_QUERY_KEY = ['landing-videos'] as const;
