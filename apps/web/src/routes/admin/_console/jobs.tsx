import type { AdminJobsSearch } from '@dn/schema';
import { createFileRoute } from '@tanstack/react-router';
import { lazy } from 'react';
import { searchAs } from '../../../lib/route-search';

// A second split, as /quote's: the shell carries no preload list for the section.
const JobsSection = lazy(() => import('../../../features/admin-jobs/JobsSection'));

// Issue 37: the network's jobs, unrouted first.
export const Route = createFileRoute('/admin/_console/jobs')({
  validateSearch: searchAs<AdminJobsSearch>(),
  component: JobsSection,
});
