import type { PublicUser } from '@dn/api';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createAppRouter, preloadRouteCode } from './app';
import { preloadFooter } from './shared/components/layout/LazyFooter';
import { LANDING_VIDEOS_QUERY_KEY, ME_QUERY_KEY } from './shared/lib/query-keys';
import type { RouterContext } from './shared/lib/router-context';
import type { LandingVideo } from './site/videos/landing-videos-query';

/** What the prerendered landing's script already knows when it hands the page to the app. */
export interface LandingState {
  user: PublicUser | null;
  videos: LandingVideo[] | undefined;
  /** What a light page's script already fetched (decision 1160), under the app's query keys. */
  queries?: ReadonlyArray<readonly [readonly unknown[], unknown]>;
}

/**
 * Starts the single-page app in #root. Without `takeOver` (index.html) it renders as soon as its
 * frame has loaded. Taking over the prerendered landing, it first seeds what the page's script
 * fetched and loads the route, so its first render is the same landing (no loading placeholder, no
 * blank frame), and resolves once that render is on screen.
 *
 * Nothing is drawn before the page's own chunks arrive, so Mantine's provider and TanStack Query
 * (frame.tsx) are fetched beside them, not in the app shell before them (decision 1310): the router is
 * made first, asks for the page's code, and gets its context once the query client exists.
 */
export async function startApp(takeOver?: LandingState): Promise<void> {
  const frame = import('./frame');
  // Read by no route before router.update below (the first load is after it).
  const router = createAppRouter({ context: {} as RouterContext, keepFirstScroll: takeOver !== undefined });
  preloadRouteCode(router, router.latestLocation.pathname);
  const { App, createQueryClient, createRouterContext } = await frame;
  const queryClient = createQueryClient();
  router.update({ ...router.options, context: createRouterContext(queryClient) });
  const root = createRoot(document.getElementById('root')!);
  const app = <App router={router} queryClient={queryClient} />;
  if (!takeOver) {
    root.render(app);
    return;
  }
  queryClient.setQueryData(ME_QUERY_KEY, takeOver.user);
  if (takeOver.videos) queryClient.setQueryData(LANDING_VIDEOS_QUERY_KEY, takeOver.videos);
  for (const [key, data] of takeOver.queries ?? []) queryClient.setQueryData(key, data);
  await Promise.all([router.load(), preloadFooter()]);
  flushSync(() => root.render(app));
}
