import { type DB, type Kysely, prepareQuery, sql } from '@dn/db';
import { ACTIVE_STATUSES } from '@dn/schema';
import type { Selectable } from 'kysely';
import type { User } from '../trpc/context';

/** The dealer's own record as the dashboard shows it (GET /api/dealer/info): never a hash. */
export const DEALER_RECORD = [
  'id',
  'fullName',
  'companyName',
  'email',
  'phoneE164',
  'tier',
  'status',
  'accessGranted',
  'approvalDate',
  'recruiterId',
  'totalOrders',
  'lastOrderDate',
  'createdAt',
] as const;
const DEALER_COLUMNS = DEALER_RECORD.map((c) => `d.${c}` as const);

type DealerRow = Selectable<DB['dealers']>;
export type DealerRecord = Pick<DealerRow, (typeof DEALER_RECORD)[number]>;

const dealerUser = (d: DealerRecord): User => ({
  id: d.id,
  role: 'dealer',
  username: d.email,
  fullName: d.fullName,
  email: d.email,
  status: d.status,
  tier: d.tier,
  record: d,
});

/** The signed-in user behind a session, or null when the account is gone or may no longer sign in. */
export async function loadSessionUser(db: Kysely<DB>, sess: { userId?: string; role?: string }): Promise<User | null> {
  if (!sess.userId) return null;
  if (sess.role === 'admin') {
    const a = await db
      .selectFrom('admins')
      .select(['id', 'username', 'fullName', 'email'])
      .where('id', '=', sess.userId)
      .executeTakeFirst();
    return a ? { ...a, role: 'admin', status: null, tier: null } : null;
  }
  if (sess.role === 'dealer') {
    const d = await db
      .selectFrom('dealers as d')
      .select(DEALER_COLUMNS)
      .where('d.id', '=', sess.userId)
      .where('d.status', 'in', [...ACTIVE_STATUSES])
      .executeTakeFirst();
    return d ? dealerUser(d) : null;
  }
  return null;
}

const sessUserId = sql<string>`(s.sess ->> 'userId')::uuid`;
const sessRole = sql<string>`s.sess ->> 'role'`;

/**
 * The session row and its user in one statement: every authenticated request starts with it,
 * so a poll costs one round trip before its own data. The user is null when the account is
 * gone or may no longer sign in (then the session ends).
 */
const sessionWithUser = prepareQuery(['sid', 'now'], (db, p) =>
  db
    .selectFrom('sessions as s')
    .leftJoin('dealers as d', (j) =>
      j
        .on(sessRole, '=', 'dealer')
        .on('d.id', '=', sessUserId)
        .on('d.status', 'in', [...ACTIVE_STATUSES]),
    )
    .leftJoin('admins as a', (j) => j.on(sessRole, '=', 'admin').on('a.id', '=', sessUserId))
    .select([
      's.sess',
      ...DEALER_COLUMNS,
      'a.id as adminId',
      'a.username as adminUsername',
      'a.fullName as adminFullName',
      'a.email as adminEmail',
    ])
    .where('s.sid', '=', p.sid)
    .where('s.expire', '>', p.now as unknown as Date),
);

/** A live session by the hash of its id, with its user read in the same statement; undefined when there is none. */
export async function readSession(
  db: Kysely<DB>,
  sidHash: string,
): Promise<{ sess: Record<string, unknown>; user: User | null } | undefined> {
  const { rows } = await sessionWithUser(db, { sid: sidHash, now: new Date() });
  const r = rows[0];
  if (!r) return undefined;
  const sess = r.sess as Record<string, unknown>;
  if (r.id !== null) {
    const record = Object.fromEntries(DEALER_RECORD.map((c) => [c, r[c]])) as DealerRecord;
    return { sess, user: dealerUser(record) };
  }
  if (r.adminId !== null) {
    const admin: User = {
      id: r.adminId,
      role: 'admin',
      username: r.adminUsername!,
      fullName: r.adminFullName!,
      email: r.adminEmail,
      status: null,
      tier: null,
    };
    return { sess, user: admin };
  }
  return { sess, user: null };
}

export const findAdminByUsername = (db: Kysely<DB>, username: string) =>
  db
    .selectFrom('admins')
    .select(['id', 'username', 'fullName', 'email', 'passwordHash'])
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();

export const findDealerCredentials = (db: Kysely<DB>, email: string) =>
  db
    .selectFrom('dealers')
    .select(['id', 'email', 'fullName', 'status', 'tier', 'password'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();

/** What GET /api/auth/user answers: never a hash. */
export function publicUser(u: User) {
  return {
    id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    role: u.role,
    tier: u.tier,
    status: u.status,
  };
}
export type PublicUser = ReturnType<typeof publicUser>;
