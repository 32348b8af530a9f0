import { createFileRoute } from '@tanstack/react-router';
import { lazy } from 'react';

// One route for the homeowner's two pages (each route costs the app shell's budget): the quote form
// at /quote, the private status page at /quote/$token (issue 37). A second split keeps the page's
// preload list out of the shell.
export const Route = createFileRoute('/quote/{-$token}')({
  component: lazy(() => import('../site/jobs/QuotePage')),
});
