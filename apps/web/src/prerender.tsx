import { createMemoryHistory } from '@tanstack/react-router';
import { prerenderToNodeStream } from 'react-dom/static';
import { createAppRouter } from './app';
import { App } from './frame';
import { createQueryClient } from './shared/lib/query-client';
import { LANDING_VIDEOS_QUERY_KEY, ME_QUERY_KEY } from './shared/lib/query-keys';
import { createRouterContext } from './shared/lib/router-context';
import videoClasses from './site/videos/videos.module.css';

/**
 * Build time only (vite/prerender-landing.ts): the landing route rendered by the app itself, as a
 * visitor who is not signed in sees it before the video list arrives. The page's script
 * (landing/main.ts) fills the videos in, and the app it boots renders this same markup.
 */
export async function renderLanding(): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(ME_QUERY_KEY, null);
  queryClient.setQueryData(LANDING_VIDEOS_QUERY_KEY, []);
  const router = createAppRouter({
    context: createRouterContext(queryClient),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  await router.load();
  // One piece: React would otherwise split a large page and join it with inline scripts (CSP).
  const { prelude } = await prerenderToNodeStream(<App router={router} queryClient={queryClient} />, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  let html = '';
  for await (const chunk of prelude) html += chunk.toString();
  return html;
}

/** Classes the page's script puts on elements that the render above does not contain. */
export const scriptOnlyClasses: string[] = [videoClasses.iframe ?? ''];
