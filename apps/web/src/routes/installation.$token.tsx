import { createFileRoute } from '@tanstack/react-router';
import { lazy } from 'react';

// A second split, as /quote's: the shell carries no preload list for the page.
const StatusView = lazy(() => import('../features/jobs/StatusView'));

/** /installation/$token: the homeowner's private installation status page (issue 37). */
export const Route = createFileRoute('/installation/$token')({ component: Page });

function Page() {
  const { token } = Route.useParams();
  return <StatusView token={token} />;
}
