import { Center, Loader } from '@mantine/core';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import classes from '../shared/components/layout/layout.module.css';
import { useAuth } from '../shared/lib/auth';
import { Landing } from '../site/marketing/Landing';
import { landingVideosQueryOptions } from '../site/videos/use-landing-videos';

export const Route = createFileRoute('/')({
  // Starts the videos request alongside the current-user call instead of after it.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(landingVideosQueryOptions());
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
