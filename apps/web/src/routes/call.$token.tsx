import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';

// The free call reminder's one-time reschedule/cancel link (issue 38), loaded only when opened.
const CallLinkPage = lazy(() => import('../site/call-link/CallLinkPage'));

export const Route = createFileRoute('/call/$token')({
  component: Page,
});

function Page() {
  const { token } = Route.useParams();
  return (
    <Suspense fallback={null}>
      <CallLinkPage token={token} />
    </Suspense>
  );
}
