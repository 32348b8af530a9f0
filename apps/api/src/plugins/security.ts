import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/** See docs/security.md and docs/decisions/0400-cross-site-request-refusal.md. */

/** Frames are allowed only from the Vimeo player and Google Forms (forms.gle redirects to docs.google.com). */
export const FRAME_SOURCES = ['https://player.vimeo.com', 'https://docs.google.com', 'https://forms.gle'];

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // No inline script: the Vite build loads only module files from our origin.
  "script-src 'self'",
  // Mantine writes CSS variables and component styles through style attributes and <style> tags.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  `frame-src ${FRAME_SOURCES.join(' ')}`,
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed';

/**
 * Whether a state-changing request comes from another site. Browsers send Origin on every
 * cross-origin POST/PUT/DELETE (and Sec-Fetch-Site on all requests); a request with neither
 * header is not a browser's cross-site request (curl, server to server) and is let through.
 */
export function isCrossSite(req: FastifyRequest, publicOrigin: string): boolean {
  const origin = req.headers.origin;
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') return true;
  if (typeof origin === 'string') {
    if (origin === publicOrigin) return false;
    // The request's own host: the app reached by another name (localhost, an internal address).
    try {
      return new URL(origin).host !== req.headers.host;
    } catch {
      // 'null' (sandboxed frames, data: URLs, some redirects) and anything unparsable.
      return true;
    }
  }
  if (typeof fetchSite === 'string') return fetchSite !== 'same-origin' && fetchSite !== 'none';
  return false;
}

/** Whether any string in a parsed body or query holds a NUL (raw, or JSON-escaped in a tRPC query). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || /\\u0000/i.test(value);
  if (!value || typeof value !== 'object' || depth > 64) return false;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  }
  return false;
}

function pathOf(req: FastifyRequest): string {
  return req.url.split('?', 1)[0] ?? '';
}

/**
 * Paths whose next segment is a token, matched or not (a 404 under them too): the applicant's status
 * page and its API (issue 15), the homeowner's (issue 37) and the call's reminder link (issue 38).
 */
const TOKEN_PATH =
  /^\/(?:application|quote|call|api\/application-status|api\/installation-status|api\/calls\/manage)\/[^/]|^\/trpc\/(?:[^/]*,)?(?:site\.applicationStatus|jobs\.statusPage|jobs\.answerInstallation|jobs\.reviewInstallation|site\.callByLink)\b/;
/** A tRPC input's `token` field, raw or URL-encoded, in the query string. */
const TOKEN_INPUT = /(?:%22|")token(?:%22|")/i;

/**
 * Addresses that carry a one-time or private token must not leak it through the Referer header
 * (issue 45: every token path): every route declared with a `:token` segment (a page or a REST
 * path, read from the matched route, so a new one is covered), the paths above, a `token=` query
 * and a tRPC GET whose input names a token.
 */
function carriesToken(req: FastifyRequest): boolean {
  const path = pathOf(req);
  if (path === '/login' || path.startsWith('/login/')) return true;
  if (req.routeOptions?.url?.includes(':token')) return true;
  return TOKEN_PATH.test(path) || /[?&]token=/.test(req.url) || TOKEN_INPUT.test(req.url);
}

function isApi(path: string): boolean {
  return path.startsWith('/api/') || path.startsWith('/trpc/') || path === '/trpc';
}

export const securityPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string }) => {
    const publicOrigin = new URL(opts.publicUrl).origin;
    const httpsPublic = publicOrigin.startsWith('https:');

    // Hooks in callback style: they run on every request, and a promise per hook is measurable
    // on the polled endpoints (docs/decisions/0504-one-statement-per-poll.md).

    // onRequest runs before the body is read, so the content type makes no difference.
    app.addHook('onRequest', (req, _reply, done) => {
      if (!SAFE_METHODS.has(req.method) && isCrossSite(req, publicOrigin)) {
        req.log.warn(
          { origin: req.headers.origin, fetchSite: req.headers['sec-fetch-site'] },
          'cross-site request refused',
        );
        done(new AppError('FORBIDDEN', CROSS_SITE_MESSAGE));
        return;
      }
      done();
    });

    // PostgreSQL cannot store NUL in text; refused here once, for REST and tRPC alike.
    app.addHook('preHandler', (req, _reply, done) => {
      if (containsNul(req.body) || containsNul(req.query)) {
        done(new AppError('INVALID_INPUT', 'Text may not contain NUL characters'));
        return;
      }
      done();
    });

    // onSend runs for every answer, errors, 404s, CSV and static files included.
    app.addHook('onSend', (req, reply: FastifyReply, payload, done) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      // A route that chose no-referrer keeps it (issue 35: the status page's was overwritten here).
      const noReferrer = reply.getHeader('referrer-policy') === 'no-referrer' || carriesToken(req);
      reply.header('referrer-policy', noReferrer ? 'no-referrer' : 'strict-origin-when-cross-origin');
      reply.header('cross-origin-opener-policy', 'same-origin');
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
      if (httpsPublic || req.protocol === 'https') {
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
      // No CORS here: the web app is served from the same origin. Nothing may grant a foreign one.
      const allowOrigin = reply.getHeader('access-control-allow-origin');
      if (allowOrigin !== undefined && allowOrigin !== publicOrigin) {
        reply.removeHeader('access-control-allow-origin');
        reply.removeHeader('access-control-allow-credentials');
      }
      done(null, payload);
    });
  },
  { name: 'security' },
);

/**
 * API answers may hold personal data: never stored by browsers or proxies, unless another
 * plugin made them revalidatable with an ETag (it then owns their Cache-Control). Registered
 * after every plugin that may add an ETag, because onSend hooks run in registration order.
 */
export const cachePolicyPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (req, reply, payload, done) => {
      if (isApi(pathOf(req)) && !reply.hasHeader('etag')) reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'cache-policy' },
);
