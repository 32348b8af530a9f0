import { type Selectable, sql } from 'kysely';
import type { AdminRole, DB, DealerStatus } from '../types';
import type { Executor } from './executor';

/**
 * Who may sign in, and as whom: the admins table and a dealer's credential columns. The
 * dealer's profile and its admin-side changes live in dealers.ts. Which statuses may sign in is
 * the services' rule (ACTIVE_STATUSES in @dn/schema), passed in.
 */

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
  'totalRevenue',
  'lastOrderDate',
  'createdAt',
] as const;
export const DEALER_RECORD_COLUMNS = DEALER_RECORD.map((c) => `d.${c}` as const);
export type DealerRecord = Pick<Selectable<DB['dealers']>, (typeof DEALER_RECORD)[number]>;

/** An admin as the session knows it: never the hash. */
export interface AdminAccount {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  role: AdminRole;
}

export const findAdminById = (db: Executor, id: string): Promise<AdminAccount | undefined> =>
  db
    .selectFrom('admins')
    .select(['id', 'username', 'fullName', 'email', 'role'])
    .where('id', '=', id)
    .executeTakeFirst();

/** Usernames compare case-insensitively. */
export const findAdminByUsername = (db: Executor, username: string) =>
  db
    .selectFrom('admins')
    .select(['id', 'username', 'fullName', 'email', 'role', 'passwordHash'])
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();

export const findAnyAdmin = (db: Executor) => db.selectFrom('admins').select('username').limit(1).executeTakeFirst();

export async function insertAdmin(db: Executor, username: string, passwordHash: string): Promise<void> {
  await db.insertInto('admins').values({ username, passwordHash, updatedAt: new Date() }).execute();
}

/**
 * Creates the admin unless one of that name (any case) exists: one statement, so instances that
 * start together on an empty database never both insert (issue 46). Resolves with whether it did.
 */
export async function insertAdminIfAbsent(db: Executor, username: string, passwordHash: string): Promise<boolean> {
  const rows = await db
    .insertInto('admins')
    .values({ username, passwordHash, updatedAt: new Date() })
    .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

export async function setAdminPassword(db: Executor, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('admins').set({ passwordHash, updatedAt: new Date() }).where('id', '=', id).execute();
}

/** A dealer's record when its status is one of `statuses` (those that may sign in). */
export const findDealerRecord = (db: Executor, id: string, statuses: readonly DealerStatus[]) =>
  db
    .selectFrom('dealers as d')
    .select(DEALER_RECORD_COLUMNS)
    .where('d.id', '=', id)
    .where('d.status', 'in', [...statuses])
    .executeTakeFirst();

/** What a dealer's sign-in checks; emails compare case-insensitively. */
export const findDealerCredentials = (db: Executor, email: string) =>
  db
    .selectFrom('dealers')
    .select(['id', 'email', 'fullName', 'status', 'tier', 'password'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();

/** Locks the dealer's row while its password is set, so a concurrent status change waits. */
export const lockDealerAccount = (trx: Executor, id: string) =>
  trx
    .selectFrom('dealers')
    .select(['id', 'email', 'fullName', 'tier', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

/** A set password also grants portal access. */
export async function setDealerPassword(trx: Executor, id: string, passwordHash: string): Promise<void> {
  await trx
    .updateTable('dealers')
    .set({ password: passwordHash, accessGranted: true, updatedAt: new Date() })
    .where('id', '=', id)
    .execute();
}
