import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type Context,
  createContextInner,
  type Deps,
  type RequestMeta,
  type SessionControl,
  type User,
} from '../context';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SEC, deviceOf, readDevice, signDevice } from '../lib/device-cookie';
import { sha256 } from '../lib/tokens';
import { bearerToken, userOfApiToken } from '../services/accounts/api-tokens';
import { loadSessionUser } from '../services/accounts/users';
import { SESSION_COOKIE, SESSION_RENEW_MS, sessionExpiry } from './session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, loaded once per request; null for visitors. */
    loadUser(): Promise<User | null>;
    meta(): RequestMeta;
    sessionControl(reply: FastifyReply): SessionControl;
  }
}

const userCache = new WeakMap<object, Promise<User | null>>();

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { deps: Deps }) => {
    const { db } = opts.deps;

    app.decorateRequest('loadUser', function loadUser() {
      let cached = userCache.get(this);
      if (!cached) {
        cached = (async () => {
          // A personal API token (decision 0980) stands alone: a request bearing one is that token's,
          // whatever cookie it also carries, and an unknown, revoked or expired one is nobody.
          const bearer = bearerToken(this.headers.authorization);
          if (bearer !== null) return userOfApiToken(opts.deps, bearer);
          const sess = this.session;
          const userId = sess?.get('userId');
          if (!userId) return null;
          // The row's expire column is checked by the store; this holds even if a row outlived it.
          const authAt = sess.get('authAt') ?? 0;
          if (sessionExpiry({ authAt, seenAt: sess.get('seenAt') ?? authAt }).getTime() <= Date.now()) {
            await sess.destroy();
            return null;
          }
          // Read with the session row by the store; looked up here only when it was not (just signed in).
          const loaded = sess.get('loadedUser');
          const user = loaded ? loaded.user : await loadSessionUser(db, { userId, role: sess.get('role') });
          if (!user) {
            // The account is gone or may no longer sign in: the session ends here.
            await sess.destroy();
            return null;
          }
          const seenAt = sess.get('seenAt') ?? 0;
          // Pushes the idle clock forward at most once an hour, so a poll normally writes nothing.
          if (Date.now() - seenAt > SESSION_RENEW_MS) sess.set('seenAt', Date.now());
          return user;
        })();
        userCache.set(this, cached);
      }
      return cached;
    });

    app.decorateRequest('meta', function meta(): RequestMeta {
      const ua = this.headers['user-agent'];
      const ref = this.headers.referer;
      return {
        ip: this.ip,
        userAgent: typeof ua === 'string' ? ua : null,
        referrer: typeof ref === 'string' ? ref : null,
        sessionRef:
          this.session?.sessionId && this.session.get('userId') ? sha256(this.session.sessionId).slice(0, 16) : null,
        device: readDevice(opts.deps.config.sessionSecret, this.cookies?.[DEVICE_COOKIE]),
      };
    });

    const pendingDevice = new WeakMap<FastifyReply, string>();
    // A callback, not an async hook: it runs on every answer, polls included (docs/decisions/0505).
    app.addHook('onSend', (_req, reply, payload, done) => {
      const device = pendingDevice.get(reply);
      if (device) reply.header('set-cookie', device);
      done(null, payload);
    });

    app.decorateRequest('sessionControl', function sessionControl(reply: FastifyReply): SessionControl {
      const req = this;
      return {
        async signIn(user) {
          // A new id at every sign-in: a planted id is never carried into an authenticated session.
          await req.session.regenerate();
          const now = Date.now();
          req.session.set('userId', user.id);
          req.session.set('role', user.role);
          req.session.set('authAt', now);
          req.session.set('seenAt', now);
          // What the "your sessions" lists call it; the user agent itself is not kept in the session.
          const ua = req.headers['user-agent'];
          req.session.set('device', deviceOf(typeof ua === 'string' ? ua : undefined));
          userCache.delete(req);
        },
        rememberDevice(account, id) {
          // Written in onSend below, after the session cookie, which stays the first Set-Cookie.
          pendingDevice.set(
            reply,
            app.serializeCookie(DEVICE_COOKIE, signDevice(opts.deps.config.sessionSecret, account, id), {
              httpOnly: true,
              sameSite: 'lax',
              secure: opts.deps.config.publicUrl.startsWith('https:'),
              path: '/',
              maxAge: DEVICE_COOKIE_MAX_AGE_SEC,
            }),
          );
        },
        endedBy() {
          return req.session?.get('endedBy') ?? null;
        },
        async signOut() {
          if (req.session?.sessionId) await req.session.destroy();
          reply.clearCookie(SESSION_COOKIE, { path: '/' });
          userCache.set(req, Promise.resolve(null));
        },
      };
    });
  },
  { name: 'auth', dependencies: ['session'] },
);

/** The context of one HTTP request (tRPC and REST alike). */
export async function createRequestContext(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<Context> {
  const user = await req.loadUser();
  return createContextInner(deps, { user, meta: req.meta(), session: req.sessionControl(reply) });
}
