import type { LightPage } from '../plugins/web';
import type { HttpRoute } from './route';

/**
 * The pages every build answers with 200, whatever its route manifest says (SPEC section 2): the
 * client routes a build without routes.json (an older one, a test's) still serves.
 */
const FIXED_PAGES = [
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
 * The status a light page's script asks for first (src/light/dom.ts `query`): its address, written
 * as that script writes it, so that the browser's preload and the script's request are one request.
 */
export function lightStatusUrl(procedure: string, token: string): string {
  return `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ token }))}`;
}

/**
 * The app's shell for a page whose address holds a token, sent with `Referrer-Policy: no-referrer`;
 * or its light page (decision 1160), with the same header and, in a `Link` header, a preload of the
 * status its script fetches: the request starts with the page, not once the script has loaded (the
 * page's largest paint is that status, issue 48).
 */
function tokenPage(url: string, summary: string, light?: { file: LightPage; status: string }): HttpRoute {
  return {
    method: 'GET',
    url,
    access: 'public',
    summary,
    handle: ({ req, reply }) => {
      reply.header('referrer-policy', 'no-referrer');
      if (!light) return req.server.webApp?.page(reply, 200);
      const { token } = req.params as { token?: string };
      // A real token is 43 characters; a longer path is no page's (its status answers 404), and
      // its address is not sent back in a header.
      const preload = token && token.length <= 128 ? lightStatusUrl(light.status, token) : undefined;
      return req.server.webApp?.light(req, reply, light.file, preload);
    },
  };
}

// Pages whose address carries a one-time or private token: it never leaves in a Referer.
const TOKEN_PAGES: HttpRoute[] = [
  tokenPage(
    '/application/:token',
    "An applicant's private status page (issue 15; its API answers 404 for a revoked token)",
    { file: 'application-status.html', status: 'site.applicationStatus' },
  ),
  tokenPage('/quote/:token', "A homeowner's private installation status page (issue 37)", {
    file: 'installation-status.html',
    status: 'jobs.statusPage',
  }),
  tokenPage(
    '/admin/accept-invite',
    "An admin invitation's page: which email and role it accepts, then name and password",
  ),
  tokenPage(
    '/call/:token',
    'The page that reschedules or cancels a free call from its reminder (issue 38; no sign-in)',
  ),
];

/**
 * A client router full path (TanStack syntax) as the server's path patterns: `$id` is a `:id`
 * parameter, an optional segment `{-$token}` gives the path with and without it, a layout's index
 * (`/admin/`) is its parent's path.
 */
export function serverPaths(fullPath: string): string[] {
  const segments = fullPath.split('/').filter(Boolean);
  let paths: string[][] = [[]];
  for (const s of segments) {
    const optional = /^\{-\$(\w+)\}$/.exec(s);
    if (optional) paths = paths.flatMap((p) => [p, [...p, `:${optional[1]}`]]);
    else paths = paths.map((p) => [...p, s.startsWith('$') ? `:${s.slice(1)}` : s]);
  }
  return paths.map((p) => `/${p.join('/')}`);
}

/**
 * The web app's pages (served when there is a build, plugins/web.ts): the prerendered landing at
 * `/`; the app's shell with 200 for every page of the client router (the build's routes.json,
 * decision 1070: derived from the router's own list, so a new console section answers 200 on a
 * reload or bookmark without anyone listing it here), the token pages with their Referrer-Policy.
 * Any other address gets the shell with 404 ('Page Not Found').
 */
export function webRoutes(clientPaths: readonly string[] | null = null): HttpRoute[] {
  const own = new Set(['/', '/quote', ...TOKEN_PAGES.map((r) => r.url)]);
  const pages = [...new Set([...FIXED_PAGES, ...(clientPaths ?? []).flatMap(serverPaths)])].filter((u) => !own.has(u));
  return [
    {
      method: 'GET',
      url: '/',
      access: 'public',
      summary: 'The landing page (prerendered), or the app for a signed-in browser',
      handle: ({ req, reply }) => req.server.webApp?.landing(req, reply),
    },
    {
      method: 'GET',
      url: '/quote',
      access: 'public',
      summary: "The homeowner's quote form (a light page, prerendered), or the app for a signed-in browser",
      handle: ({ req, reply }) => req.server.webApp?.light(req, reply, 'quote.html'),
    },
    ...pages.map(
      (url): HttpRoute => ({
        method: 'GET',
        url,
        access: 'public',
        summary: 'A page of the web app',
        handle: ({ req, reply }) => req.server.webApp?.page(reply, 200),
      }),
    ),
    ...TOKEN_PAGES,
  ];
}
