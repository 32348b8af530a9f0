import { Center, Loader } from '@mantine/core';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import classes from '../shared/components/layout/layout.module.css';
import { useAuth } from '../shared/lib/auth';
import { Landing } from '../site/marketing/Landing';

export const Route = createFileRoute('/')({
  // Starts the videos request alongside the current-user call instead of after it. Imported here, not
  // at the top: the route's options are in the app shell, the API client is not (decision 1310).
  loader: ({ context }) => {
    void import('../site/videos/landing-videos-query').then((m) =>
      context.queryClient.prefetchQuery(m.landingVideosQueryOptions()),
    );
  },
  component: Page,
});

/** SPEC section 2: a signed-in user is sent to /admin or /dashboard; a placeholder shows meanwhile. */
function Page() {
  const { isLoading, isAuthenticated, isAdmin } = useAuth();
  if (isLoading || isAuthenticated) {
    return (
      <Center className={classes.loading} data-testid="landing-loading">
        <Loader aria-label="Loading" />
        {isAuthenticated && <Navigate to={isAdmin ? '/admin' : '/dashboard'} replace />}
      </Center>
    );
  }
  return <Landing />;
}
