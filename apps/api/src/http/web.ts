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
  {
    method: 'GET',
    url: '/application/:token',
    access: 'public',
    // Its API answers 404 for a revoked token; the token never leaves in a Referer.
    summary: "An applicant's private status page (issue 15)",
    handle: ({ req, reply }) => req.server.webApp?.page(reply.header('referrer-policy', 'no-referrer'), 200),
  },
  {
    method: 'GET',
    url: '/quote/:token',
    access: 'public',
    // The homeowner's installation status (issue 37): the token never leaves in a Referer either.
    summary: "A homeowner's private installation status page (issue 37)",
    handle: ({ req, reply }) => req.server.webApp?.page(reply.header('referrer-policy', 'no-referrer'), 200),
  },
  {
    method: 'GET',
    url: '/admin/accept-invite',
    access: 'public',
    // A page, not a missing one (issue 36); its ?token= never leaves in a Referer either.
    summary: "An admin invitation's page: which email and role it accepts, then name and password",
    handle: ({ req, reply }) => req.server.webApp?.page(reply.header('referrer-policy', 'no-referrer'), 200),
  },
  {
    method: 'GET',
    url: '/call/:token',
    access: 'public',
    // The free call reminder's one-time link (issue 38); the token never leaves in a Referer.
    summary: 'The page that reschedules or cancels a free call from its reminder (no sign-in)',
    handle: ({ req, reply }) => req.server.webApp?.page(reply.header('referrer-policy', 'no-referrer'), 200),
  },
];
