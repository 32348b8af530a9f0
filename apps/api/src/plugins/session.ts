import type { DB, Kysely } from '@dn/db';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance, Session } from 'fastify';
import fp from 'fastify-plugin';
import { randomToken, sha256 } from '../lib/tokens';
import { readSession } from '../services/users';
import type { User } from '../trpc/context';

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
    readSession(this.db, sha256(sid)).then(
      (found) =>
        cb(null, found ? ({ ...found.sess, loadedUser: new LoadedUser(found.user) } as unknown as Session) : null),
      cb,
    );
  }

  set(sid: string, session: Session, cb: Callback): void {
    const sess = JSON.parse(JSON.stringify(session)) as Record<string, unknown> & Partial<SessionData>;
    const expire = sessionExpiry(sess);
    const key = sha256(sid);
    (async () => {
      const updated = await this.db
        .updateTable('sessions')
        .set({ sess, expire })
        .where('sid', '=', key)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) return;
      if (!sess.authAt || Date.now() - sess.authAt > INSERT_GRACE_MS) return;
      await this.db.insertInto('sessions').values({ sid: key, sess, expire }).execute();
    })().then(() => cb(), cb);
  }

  destroy(sid: string, cb: Callback): void {
    this.db
      .deleteFrom('sessions')
      .where('sid', '=', sha256(sid))
      .execute()
      .then(() => cb(), cb);
  }
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { db: Kysely<DB>; secret: string }) => {
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
  },
  { name: 'session' },
);

/** Ends every session of a user, except the one given (its hashed id). */
export async function endSessionsOfUser(db: Kysely<DB>, userId: string, exceptSid?: string): Promise<number> {
  let q = db.deleteFrom('sessions').where((eb) => eb(eb.ref('sess', '->>').key('userId' as never), '=', userId));
  if (exceptSid) q = q.where('sid', '<>', exceptSid);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes expired rows; run on a timer by the server. */
export async function pruneExpiredSessions(db: Kysely<DB>): Promise<number> {
  const r = await db.deleteFrom('sessions').where('expire', '<=', new Date()).executeTakeFirst();
  return Number(r.numDeletedRows);
}
