import { cssVariablesResolver, theme } from '@dn/ui';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type AnyRouter, RouterProvider } from '@tanstack/react-router';
import { lazy, type ReactNode, StrictMode, Suspense } from 'react';

export { createQueryClient } from './shared/lib/query-client';
export { createRouterContext } from './shared/lib/router-context';

// The toast host is its own chunk: a toast shown before it arrives waits in the store.
const NotificationsHost = lazy(() => import('./shared/lib/notifications-host'));

/**
 * What every page renders inside: Mantine's provider (its theme and CSS variables) and TanStack
 * Query's client. Not in the app shell (index.html's eager JS, decision 1310): boot.tsx imports this
 * module when it starts, beside the first page's own chunks, which need both before anything is drawn.
 */
export function Frame({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Suspense fallback={null}>
          <NotificationsHost />
        </Suspense>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}

/** The whole app: the browser renders it, and the build renders it for the prerendered pages. */
export function App({ router, queryClient }: { router: AnyRouter; queryClient: QueryClient }) {
  return (
    <Frame queryClient={queryClient}>
      <RouterProvider router={router} />
    </Frame>
  );
}
