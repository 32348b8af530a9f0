import type { PublicUser } from '@dn/api';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app';
import { preloadFooter } from './shared/components/layout/LazyFooter';
import { createQueryClient } from './shared/lib/query-client';
import { LANDING_VIDEOS_QUERY_KEY, ME_QUERY_KEY } from './shared/lib/query-keys';
import type { LandingVideo } from './site/videos/use-landing-videos';

/** What the prerendered landing's script already knows when it hands the page to the app. */
export interface LandingState {
  user: PublicUser | null;
  videos: LandingVideo[] | undefined;
  /** What a light page's script already fetched (decision 1160), under the app's query keys. */
  queries?: ReadonlyArray<readonly [readonly unknown[], unknown]>;
}

/**
 * Starts the single-page app in #root. Without `takeOver` (index.html) it renders at once. Taking
 * over the prerendered landing, it first seeds what the page's script fetched and loads the
 * route, so its first render is the same landing (no loading placeholder, no blank frame), and
 * resolves once that render is on screen.
 */
export async function startApp(takeOver?: LandingState): Promise<void> {
  const queryClient = createQueryClient();
  const router = createAppRouter({ queryClient, keepFirstScroll: takeOver !== undefined });
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
