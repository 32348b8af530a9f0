import { type DB, type Kysely, sql } from '@dn/db';
import { ACTIVE_STATUSES } from '@dn/schema';
import type { User } from '../trpc/context';

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
      .selectFrom('dealers')
      .select(['id', 'email', 'fullName', 'status', 'tier'])
      .where('id', '=', sess.userId)
      .where('status', 'in', [...ACTIVE_STATUSES])
      .executeTakeFirst();
    return d ? { ...d, username: d.email, role: 'dealer' } : null;
  }
  return null;
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
