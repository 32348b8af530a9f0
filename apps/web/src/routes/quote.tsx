import { createFileRoute } from '@tanstack/react-router';
import { lazy } from 'react';

// A second split: the route's own chunk imports nothing, so the shell carries no preload list for the page.
const QuotePage = lazy(() => import('../features/jobs/QuotePage'));

/** /quote: a homeowner asks for an installation quote (issue 37). */
export const Route = createFileRoute('/quote')({ component: QuotePage });
