/**
 * The app's query keys for the two status pages (tRPC's: the path, then the input and the kind), so
 * the light pages' scripts can seed the app they boot without loading the tRPC client. The build
 * checks them against the app's own (src/light/prerender.tsx).
 */
export const installationStatusKey = (token: string) =>
  [['jobs', 'statusPage'], { input: { token }, type: 'query' }] as const;
export const applicationStatusKey = (token: string) =>
  [['site', 'applicationStatus'], { input: { token }, type: 'query' }] as const;
