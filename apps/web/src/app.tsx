import '@mantine/core/styles.css';
import './touch-targets.css';
import { cssVariablesResolver, theme } from '@dn/ui';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory, RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense } from 'react';
import { routeTree } from './routeTree.gen';
import { createRouterContext } from './shared/lib/router-context';

// The toast host is its own chunk: a toast shown before it arrives waits in the store.
const NotificationsHost = lazy(() => import('./shared/lib/notifications-host'));

export interface AppRouterOptions {
  queryClient: QueryClient;
  /** Memory history for the build-time render of the landing page; the browser's otherwise. */
  history?: RouterHistory;
  /** Leave the window where it is on the first render (the app taking over a prerendered page). */
  keepFirstScroll?: boolean;
}

export function createAppRouter({ queryClient, history, keepFirstScroll = false }: AppRouterOptions) {
  let keepScroll = keepFirstScroll;
  return createRouter({
    routeTree,
    context: createRouterContext(queryClient),
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

/** The whole app: the browser renders it, and the build renders it once for the landing page. */
export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Suspense fallback={null}>
          <NotificationsHost />
        </Suspense>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}
