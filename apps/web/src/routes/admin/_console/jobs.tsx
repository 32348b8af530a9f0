import { createFileRoute } from '@tanstack/react-router';
import { lazy } from 'react';

// Issue 37: the network's jobs, unrouted first. A second split keeps the section's preload list out
// of the app shell, and its search (?status=) is read by the section's hook (use-section-search.ts).
export const Route = createFileRoute('/admin/_console/jobs')({
  component: lazy(() => import('../../../console/jobs/JobsSection')),
});
