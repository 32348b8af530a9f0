import { RECRUITER_COOKIE, RECRUITER_COOKIE_DAYS, RECRUITER_ID_RE } from '@dn/schema';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * `GET /?r=ID` (any page) sets the recruiter_id cookie on the server's response too: browsers
 * cap the lifetime of script-set cookies and a client router may drop the parameter before
 * the page code reads it. Not httpOnly, because the wizard reads it. An id that is not
 * well formed is ignored with a warning. Secure whenever PUBLIC_URL is https (as the session
 * cookie, plugins/session.ts): the site is reached over TLS whether or not its proxy is in
 * TRUST_PROXY; on an http PUBLIC_URL (development) it follows the request.
 */
/** The well-formed ?r= of a page request (not the API, not assets), or null. */
function recruiterIdOf(req: FastifyRequest): string | null {
  if (req.method !== 'GET') return null;
  const q = req.url.indexOf('?');
  if (q < 0) return null;
  const path = req.url.slice(0, q);
  if (path.startsWith('/api/') || path.startsWith('/trpc') || path.startsWith('/assets/')) return null;
  const r = new URLSearchParams(req.url.slice(q + 1)).get('r');
  if (r === null) return null;
  if (!RECRUITER_ID_RE.test(r)) {
    req.log.warn({ recruiterId: r.slice(0, 40) }, 'ignored a malformed recruiter id in the link');
    return null;
  }
  return r;
}

export const referralPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string }) => {
    const httpsSite = opts.publicUrl.startsWith('https:');
    app.addHook('onRequest', (req, reply, done) => {
      const r = recruiterIdOf(req);
      if (r !== null) {
        reply.setCookie(RECRUITER_COOKIE, r, {
          path: '/',
          maxAge: RECRUITER_COOKIE_DAYS * 24 * 60 * 60,
          sameSite: 'lax',
          secure: httpsSite || req.protocol === 'https',
          httpOnly: false,
        });
      }
      done();
    });
  },
  { name: 'referral', dependencies: ['session'] },
);
