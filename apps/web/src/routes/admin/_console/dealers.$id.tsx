import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';

// A dealer's detail view (issue 36): a route of its own, so an email or the activity log can link
// to it. Its code loads one step later (React.lazy), so the shell's preload list for this route
// stays one chunk long: the app shell is at its budget (scripts/check-bundle.mjs).
const DealerPage = lazy(() => import('../../../console/admin/DealerDetail'));

export const Route = createFileRoute('/admin/_console/dealers/$id')({
  component: DealerRoute,
});

function DealerRoute() {
  const { id } = Route.useParams();
  return (
    <Suspense fallback={null}>
      <DealerPage id={id} />
    </Suspense>
  );
}
