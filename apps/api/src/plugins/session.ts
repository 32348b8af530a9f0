import type { DB, Kysely } from '@dn/db';
import { destroySession, readSessionWithUser, type SessionEndReason, saveSession } from '@dn/db/queries/sessions';
import { ACTIVE_STATUSES } from '@dn/schema';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance, Session } from 'fastify';
import fp from 'fastify-plugin';
import type { User } from '../context';
import { randomToken, sha256 } from '../lib/tokens';
import { sessionUser } from '../services/accounts/users';

/** See docs/decisions/0003-sessions.md. */
export const SESSION_COOKIE = 'dn.sid';
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60_000;
/** A session's idle clock is pushed forward at most this often, so polls do not write. */
export const SESSION_RENEW_MS = 60 * 60_000;
/** A row that does not exist is only inserted this soon after sign-in: a late save of a
 * signed-out session (a poll racing the logout) must not bring it back. */
const INSERT_GRACE_MS = 30_000;

export interface SessionData {
  userId: string;
  role: 'admin' | 'dealer';
  authAt: number;
  seenAt: number;
  /** "Chrome on Linux": what the "your sessions" lists name a session by (issue 15). */
  device?: string;
  /** Set on a session ended from elsewhere, in place of its user (issue 36). */
  endedBy?: SessionEndReason;
}

declare module 'fastify' {
  interface Session extends Partial<SessionData> {
    /** The session's user as read with the row in this request; see LoadedUser. */
    loadedUser?: LoadedUser;
  }
}

type Callback = (err?: unknown) => void;
type GetCallback = (err: unknown, result?: Session | null) => void;

export function sessionExpiry(sess: Partial<SessionData>, now = Date.now()): Date {
  const authAt = sess.authAt ?? now;
  const seenAt = sess.seenAt ?? authAt;
  return new Date(Math.min(authAt + SESSION_ABSOLUTE_MS, seenAt + SESSION_IDLE_MS));
}

/**
 * The session's user as read with its row for this request (null: the account is gone or may
 * no longer sign in). It serialises to nothing, so it is never stored and @fastify/session's
 * change detection (a hash of the session's JSON) neither sees nor pays for it.
 */
export class LoadedUser {
  constructor(readonly user: User | null) {}
  toJSON(): undefined {
    return undefined;
  }
}

/**
 * A @fastify/session store over the `sessions` table. The table keeps the SHA-256 of each id.
 * A read brings the session's user along in the same statement (`loadedUser`), so an
 * authenticated request costs one round trip before its own data.
 */
export class PgSessionStore {
  constructor(private readonly db: Kysely<DB>) {}

  get(sid: string, cb: GetCallback): void {
    readSessionWithUser(this.db, sha256(sid), ACTIVE_STATUSES).then(
      (found) =>
        cb(
          null,
          found ? ({ ...found.sess, loadedUser: new LoadedUser(sessionUser(found)) } as unknown as Session) : null,
        ),
      cb,
    );
  }

  set(sid: string, session: Session, cb: Callback): void {
    const sess = JSON.parse(JSON.stringify(session)) as Record<string, unknown> & Partial<SessionData>;
    const expire = sessionExpiry(sess);
    const insertIfMissing = () => Boolean(sess.authAt) && Date.now() - (sess.authAt ?? 0) <= INSERT_GRACE_MS;
    saveSession(this.db, sha256(sid), sess, expire, insertIfMissing).then(() => cb(), cb);
  }

  destroy(sid: string, cb: Callback): void {
    destroySession(this.db, sha256(sid)).then(() => cb(), cb);
  }
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { db: Kysely<DB>; secret: string; publicUrl: string }) => {
    await app.register(fastifyCookie);
    await app.register(fastifySession, {
      secret: opts.secret,
      cookieName: SESSION_COOKIE,
      store: new PgSessionStore(opts.db),
      idGenerator: () => randomToken(),
      // No row for anonymous visitors, and no write unless the session changed.
      saveUninitialized: false,
      rolling: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', path: '/', maxAge: SESSION_ABSOLUTE_MS },
    });
    // An https site is reached over TLS whether or not its proxy is in TRUST_PROXY, so its session
    // cookie is always Secure. Not `secure: true` above: @fastify/session then refuses to save a
    // session on a request Fastify believes came over http (a TLS proxy not in TRUST_PROXY), and
    // sign-in would silently fail. 'auto' alone marks it Secure only when the request says https.
    if (opts.publicUrl.startsWith('https:')) {
      const prefix = `${SESSION_COOKIE}=`;
      const insecure = (c: string) => c.startsWith(prefix) && !/;\s*secure\b/i.test(c);
      app.addHook('onSend', (_req, reply, payload, done) => {
        const set = reply.getHeader('set-cookie');
        const list = typeof set === 'string' ? [set] : Array.isArray(set) ? set : [];
        if (list.some(insecure)) {
          // header() appends to set-cookie: the old value goes first.
          reply.removeHeader('set-cookie');
          reply.header(
            'set-cookie',
            list.map((c) => (insecure(c) ? `${c}; Secure` : c)),
          );
        }
        done(null, payload);
      });
    }
  },
  { name: 'session' },
);
