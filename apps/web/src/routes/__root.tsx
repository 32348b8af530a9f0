import { createRootRouteWithContext, Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect } from 'react';
import { LazyFooter } from '../shared/components/layout/LazyFooter';
import classes from '../shared/components/layout/layout.module.css';
import type { RouterContext } from '../shared/lib/router-context';

// Not on the landing page, so the landing does not download it.
const TopNav = lazy(() => import('../shared/components/layout/TopNav').then((m) => ({ default: m.TopNav })));
// Rarely shown: not in the first download.
const LazyNotFound = lazy(() => import('../shared/components/NotFound').then((m) => ({ default: m.NotFound })));

function NotFound() {
  return (
    <Suspense fallback={null}>
      <LazyNotFound />
    </Suspense>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

/** SPEC section 2: no top navigation on these (the landing has its own). */
const WITHOUT_TOP_NAV = new Set(['/', '/login', '/admin/login']);
const LOGIN_PAGES = new Set(['/login', '/admin/login']);

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

function RootLayout() {
  const pathname = normalise(useRouterState({ select: (s) => s.location.pathname }));
  useEffect(() => {
    // Both beside the page's own chunks, not in the app shell (decision 1310): app-version sits in the
    // API client's chunk, which the first page has loaded by now; the ?r= capture in its own (the
    // landing's script shares it).
    void import('../shared/lib/app-version').then((m) => m.rememberAppVersion());
    void import('../shared/lib/referral').then((m) => m.captureReferral());
  }, []);
  return (
    <>
      {!WITHOUT_TOP_NAV.has(pathname) && (
        <Suspense fallback={<div className={classes.headerPlaceholder} />}>
          <TopNav />
        </Suspense>
      )}
      <main className={classes.main}>
        <Outlet />
      </main>
      {!LOGIN_PAGES.has(pathname) && <LazyFooter />}
    </>
  );
}
