/**
 * A section route's `validateSearch` (issue 34): the URL's values typed as the section's schema
 * (`@dn/schema`'s admin-search.ts) says, with no code of its own. Route options are in the app
 * shell's first download and zod is not (zod/mini measured +15.8 KB gzip against 0.9 KB of room,
 * docs/decisions/0875): the schema validates the values when the section's code loads
 * (features/admin/use-section-search.ts), before the section reads any, and rewrites a URL it
 * refused. Sections read their search only through that hook.
 */
export const searchAs =
  <T>() =>
  (search: Record<string, unknown>): T =>
    search as T;
