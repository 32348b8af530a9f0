import type { HttpRoute } from './route';

/** Client routes of SPEC section 2; anything else gets the app with a 404 status ('Page Not Found'). */
const CLIENT_ROUTES = [
  '/login',
  '/register',
  '/admin',
  '/admin/login',
  '/dashboard',
  '/resources',
  '/about',
  '/presentation',
  '/quote',
];

/** The app's shell for a page whose address holds a token, sent with `Referrer-Policy: no-referrer`. */
function tokenPage(url: string, summary: string): HttpRoute {
  return {
    method: 'GET',
    url,
    access: 'public',
    summary,
    handle: ({ req, reply }) => req.server.webApp?.page(reply.header('referrer-policy', 'no-referrer'), 200),
  };
}

/**
 * The web app's pages (served when there is a build, plugins/web.ts): its shell for every client
 * route, so a reload works; the prerendered landing at `/`.
 */
export const webRoutes: HttpRoute[] = [
  {
    method: 'GET',
    url: '/',
    access: 'public',
    summary: 'The landing page (prerendered), or the app for a signed-in browser',
    handle: ({ req, reply }) => req.server.webApp?.landing(req, reply),
  },
  ...CLIENT_ROUTES.map(
    (url): HttpRoute => ({
      method: 'GET',
      url,
      access: 'public',
      summary: 'A page of the web app',
      handle: ({ req, reply }) => req.server.webApp?.page(reply, 200),
    }),
  ),
  // Pages whose address carries a one-time or private token: it never leaves in a Referer.
  tokenPage(
    '/application/:token',
    "An applicant's private status page (issue 15; its API answers 404 for a revoked token)",
  ),
  tokenPage('/quote/:token', "A homeowner's private installation status page (issue 37)"),
  tokenPage(
    '/admin/accept-invite',
    "An admin invitation's page: which email and role it accepts, then name and password",
  ),
  tokenPage(
    '/call/:token',
    'The page that reschedules or cancels a free call from its reminder (issue 38; no sign-in)',
  ),
];
