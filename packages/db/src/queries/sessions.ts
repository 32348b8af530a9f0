import { type ExpressionBuilder, sql } from 'kysely';
import { prepareQuery } from '../prepared';
import type { DB, DealerStatus } from '../types';
import { type AdminAccount, DEALER_RECORD, DEALER_RECORD_COLUMNS, type DealerRecord } from './accounts';
import type { Executor } from './executor';

/**
 * The only writer of the `sessions` table. Every key here is the SHA-256 of a session id (the
 * cookie's value never reaches the database). See docs/decisions/0003-sessions.md.
 */

type Sess = Record<string, unknown>;

const sessUserId = sql<string>`(s.sess ->> 'userId')::uuid`;
const sessRole = sql<string>`s.sess ->> 'role'`;

/** One source's admin version (migration 0960): the sum of its shards, for an admin's session only. */
const adminVersion = (source: 'dealers' | 'calls') =>
  sql<string | null>`case when a.id is not null then (
    select coalesce(sum(n), 0)::text from admin_versions where source = ${sql.lit(source)}) end`;

/**
 * The session row and its user in one statement: every authenticated request starts with it,
 * so a poll costs one round trip before its own data. Compiled once (docs/decisions/0504).
 */
const sessionWithUser = prepareQuery(['sid', 'now', 'statuses'], (db, p) =>
  db
    .selectFrom('sessions as s')
    .leftJoin('dealers as d', (j) =>
      j.on(sessRole, '=', 'dealer').on('d.id', '=', sessUserId).on(sql<boolean>`d.status = any(${p.statuses}::text[])`),
    )
    .leftJoin('admins as a', (j) => j.on(sessRole, '=', 'admin').on('a.id', '=', sessUserId))
    .select((eb) => [
      's.sess',
      ...DEALER_RECORD_COLUMNS,
      // The dealer's affiliate-stats version (migration 0950): what lets that poll answer 304 from here.
      eb
        .selectFrom('referralVersions as v')
        .select(sql<string>`coalesce(sum(v.n), 0)::text`.as('n'))
        .whereRef('v.dealerId', '=', 'd.id')
        .as('referralsVersion'),
      // The dealer's jobs version (migration 4200, decision 1180) and the deadline of their first
      // open offer: what lets the offers poll and the job list answer 304 from here. Two index probes:
      // 'open' is written into the statement, not a parameter, so that the plan the connection keeps
      // for it (a generic one) may read the partial index of open offers (decision 1320).
      eb
        .selectFrom('jobVersions as jv')
        .select(sql<string>`coalesce(sum(jv.n), 0)::text`.as('n'))
        .whereRef('jv.dealerId', '=', 'd.id')
        .as('jobsVersion'),
      eb
        .selectFrom('jobOffers as jo')
        .select(sql<Date | null>`min(jo.expires_at)`.as('e'))
        .whereRef('jo.dealerId', '=', 'd.id')
        .where('jo.status', '=', sql.lit('open'))
        .as('firstOfferExpiry'),
      'a.id as adminId',
      'a.username as adminUsername',
      'a.fullName as adminFullName',
      'a.email as adminEmail',
      'a.role as adminRole',
      // The admin console's versions (migration 0960), summed only when the session is an admin's:
      // an uncorrelated subquery under CASE runs once, when first needed.
      adminVersion('dealers').as('adminDealersVersion'),
      adminVersion('calls').as('adminCallsVersion'),
    ])
    .where('s.sid', '=', p.sid)
    .where('s.expire', '>', p.now as unknown as Date),
);

export interface SessionRead {
  sess: Sess;
  /** The signed-in dealer, when the session is a dealer's and its status is one of `statuses`. */
  dealer: DealerRecord | null;
  /** That dealer's affiliate-stats version (decision 0790); null without a dealer. */
  referralsVersion: string | null;
  /**
   * That dealer's jobs version (decision 1180) and the deadline of their first open offer (null:
   * none); null without a dealer.
   */
  jobsVersion: { n: string; firstOfferExpiry: Date | null } | null;
  /** The admin console's versions (decision 0791); null without an admin. */
  adminVersions: { dealers: string; calls: string } | null;
  admin: AdminAccount | null;
}

/**
 * A live session by the hash of its id, with its user read in the same statement; undefined
 * when there is none. Both users are null when the account is gone or may no longer sign in.
 */
export async function readSessionWithUser(
  db: Executor,
  sidHash: string,
  statuses: readonly DealerStatus[],
): Promise<SessionRead | undefined> {
  const { rows } = await sessionWithUser(db, { sid: sidHash, now: new Date(), statuses: [...statuses] });
  const r = rows[0];
  if (!r) return undefined;
  const dealer = r.id !== null ? (Object.fromEntries(DEALER_RECORD.map((c) => [c, r[c]])) as DealerRecord) : null;
  const admin =
    r.adminId !== null
      ? {
          id: r.adminId,
          username: r.adminUsername!,
          fullName: r.adminFullName!,
          email: r.adminEmail,
          role: r.adminRole!,
        }
      : null;
  return {
    sess: r.sess as Sess,
    dealer,
    referralsVersion: dealer ? r.referralsVersion : null,
    jobsVersion: dealer && r.jobsVersion !== null ? { n: r.jobsVersion, firstOfferExpiry: r.firstOfferExpiry } : null,
    admin,
    adminVersions:
      admin && r.adminDealersVersion !== null && r.adminCallsVersion !== null
        ? { dealers: r.adminDealersVersion, calls: r.adminCallsVersion }
        : null,
  };
}

/**
 * Writes a session's data and expiry. A row that does not exist is inserted only when
 * `insertIfMissing` (the caller's rule: a late save of a signed-out session must not bring it back).
 */
export async function saveSession(
  db: Executor,
  sidHash: string,
  sess: Sess,
  expire: Date,
  insertIfMissing: () => boolean,
): Promise<void> {
  const updated = await db.updateTable('sessions').set({ sess, expire }).where('sid', '=', sidHash).executeTakeFirst();
  if (updated.numUpdatedRows > 0n || !insertIfMissing()) return;
  await db.insertInto('sessions').values({ sid: sidHash, sess, expire }).execute();
}

export async function destroySession(db: Executor, sidHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('sid', '=', sidHash).execute();
}

/**
 * Why a session was ended from elsewhere (issue 36): its row is kept as `{ endedBy }` (no user,
 * so it signs nobody in) until it would have expired, and the browser holding it is told why on
 * the page it lands on.
 */
export type SessionEndReason = 'password_changed' | 'signed_out_elsewhere';

const ofUser = (userId: string) => (eb: ExpressionBuilder<DB, 'sessions'>) =>
  eb(eb.ref('sess', '->>').key('userId' as never), '=', userId);

/**
 * Ends every session of a user, except the one given (its hashed id); resolves with how many ended.
 * With a reason, the rows are kept as markers of it instead of deleted.
 */
export async function endSessionsOfUser(
  db: Executor,
  userId: string,
  exceptSid?: string,
  reason?: SessionEndReason,
): Promise<number> {
  if (reason) {
    let u = db
      .updateTable('sessions')
      .set({ sess: { endedBy: reason } })
      .where(ofUser(userId));
    if (exceptSid) u = u.where('sid', '<>', exceptSid);
    return Number((await u.executeTakeFirst()).numUpdatedRows);
  }
  let q = db.deleteFrom('sessions').where(ofUser(userId));
  if (exceptSid) q = q.where('sid', '<>', exceptSid);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Ends every session of these users (a batch of dealers leaving approved/active). */
export async function endSessionsOfUsers(db: Executor, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const r = await db
    .deleteFrom('sessions')
    .where((eb) => eb(eb.ref('sess', '->>').key('userId' as never), 'in', userIds as string[]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * A user's live sessions, as the "your sessions" list shows them. `ref` is the first 16 hex
 * characters of the hashed id (what the audit trail and RequestMeta.sessionRef carry), never the id.
 */
export async function listSessionsOfUser(db: Executor, userId: string) {
  const rows = await db
    .selectFrom('sessions')
    .select(['sid', 'sess', 'expire'])
    .where((eb) => eb(eb.ref('sess', '->>').key('userId' as never), '=', userId))
    .where('expire', '>', new Date())
    .execute();
  return rows.map((r) => {
    const sess = r.sess as { authAt?: number; seenAt?: number; device?: string };
    return {
      ref: r.sid.slice(0, 16),
      device: sess.device ?? null,
      signedInAt: sess.authAt ? new Date(sess.authAt) : null,
      lastSeenAt: sess.seenAt ? new Date(sess.seenAt) : null,
      expiresAt: r.expire,
    };
  });
}

/** Ends one of a user's sessions by its ref (see listSessionsOfUser); resolves with how many ended. */
export async function endSessionOfUserByRef(db: Executor, userId: string, ref: string): Promise<number> {
  const r = await db
    .deleteFrom('sessions')
    .where((eb) => eb(eb.ref('sess', '->>').key('userId' as never), '=', userId))
    .where(sql<string>`left(sid, 16)`, '=', ref)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Ends every session of a user but the one whose ref is given (the caller's own), kept as markers of why. */
export async function endOtherSessionsOfUser(
  db: Executor,
  userId: string,
  keepRef: string | null,
  reason: SessionEndReason,
): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ sess: { endedBy: reason } })
    .where(ofUser(userId));
  if (keepRef) q = q.where(sql<string>`left(sid, 16)`, '<>', keepRef);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Ends every session of one role ('dealer': when every dealer is removed at once). */
export async function endSessionsOfRole(db: Executor, role: 'admin' | 'dealer'): Promise<number> {
  const r = await db
    .deleteFrom('sessions')
    .where((eb) => eb(eb.ref('sess', '->>').key('role' as never), '=', role))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes expired rows; run on a timer by the server. */
export async function pruneExpiredSessions(db: Executor): Promise<number> {
  const r = await db.deleteFrom('sessions').where('expire', '<=', new Date()).executeTakeFirst();
  return Number(r.numDeletedRows);
}
