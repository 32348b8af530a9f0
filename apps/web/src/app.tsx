import '@mantine/core/styles.css';
import './touch-targets.css';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import type { RouterContext } from './shared/lib/router-context';

export interface AppRouterOptions {
  /**
   * What every route's `beforeLoad` and `loader` read (shared/lib/router-context.ts). The browser's
   * app (boot.tsx) creates the router before the query client has loaded (frame.tsx) and gives the
   * router its context with `router.update` once it has, before the first load.
   */
  context: RouterContext;
  /** Memory history for the build-time render of the landing page; the browser's otherwise. */
  history?: RouterHistory;
  /** Leave the window where it is on the first render (the app taking over a prerendered page). */
  keepFirstScroll?: boolean;
}

/**
 * The router: the app shell's one framework beside React (decision 1310). Mantine's provider and
 * TanStack Query, which every page renders inside, are frame.tsx's, loaded beside the page's chunks.
 */
export function createAppRouter({ context, history, keepFirstScroll = false }: AppRouterOptions) {
  let keepScroll = keepFirstScroll;
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    ...(history ? { history, isServer: true } : {}),
    // Server rendering would write an inline script for it (refused by our CSP): browser only.
    scrollRestoration: history
      ? false
      : () => {
          if (!keepScroll) return true;
          keepScroll = false;
          return false;
        },
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

/**
 * Starts fetching the code of the routes that `pathname` matches (each route's lazy component),
 * so the page's chunks download beside frame.tsx's rather than after it.
 */
export function preloadRouteCode(router: AppRouter, pathname: string): void {
  const [routes] = router.getMatchedRoutes(pathname);
  for (const route of routes) {
    const component = route.options.component as { preload?: () => Promise<unknown> } | undefined;
    void component?.preload?.().catch(() => {
      // The router loads it again, and shows its error, when it renders the page.
    });
  }
}
