import { sql } from 'kysely';
import type { AdminRole } from '../types';
import type { Executor } from './executor';

/**
 * The admin team (issue 14): members, roles, invitations. Sign-in reads stay in accounts.ts.
 * The last-owner rule is kept by lockOwners: every change that could leave no owner locks the
 * owners' rows first, so two owners demoting each other at once run one after the other.
 */

export const listAdmins = (db: Executor) =>
  db
    .selectFrom('admins')
    .select(['id', 'username', 'fullName', 'email', 'role', 'createdAt'])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();

/**
 * Locks every owner's row (FOR UPDATE) and returns their ids. A concurrent caller waits, then
 * re-reads: a row demoted meanwhile is no longer an owner and drops out of its answer.
 */
export async function lockOwners(trx: Executor): Promise<string[]> {
  const rows = await trx.selectFrom('admins').select('id').where('role', '=', 'owner').forUpdate().execute();
  return rows.map((r) => r.id);
}

export const findAdminForUpdate = (trx: Executor, id: string) =>
  trx
    .selectFrom('admins')
    .select(['id', 'username', 'role', 'passwordHash'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

export async function setAdminRole(trx: Executor, id: string, role: AdminRole): Promise<void> {
  await trx.updateTable('admins').set({ role, updatedAt: new Date() }).where('id', '=', id).execute();
}

export async function deleteAdmin(trx: Executor, id: string): Promise<void> {
  await trx.deleteFrom('admins').where('id', '=', id).execute();
}

export const findAdminByUsernameCi = (db: Executor, username: string) =>
  db.selectFrom('admins').select('id').where(sql`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();

export const insertAdminWithRole = (
  trx: Executor,
  a: { username: string; fullName: string; email: string; role: AdminRole; passwordHash: string },
) =>
  trx
    .insertInto('admins')
    .values({ ...a, updatedAt: new Date() })
    .returning(['id', 'role'])
    .executeTakeFirstOrThrow();

export const insertInvitation = (trx: Executor, i: { email: string; role: AdminRole; invitedBy: string }) =>
  trx.insertInto('adminInvitations').values(i).returning(['id', 'email', 'role']).executeTakeFirstOrThrow();

/** The open invitations of an address (not accepted), so a new one can retire their links. */
export const openInvitationIds = async (trx: Executor, email: string): Promise<string[]> =>
  (
    await trx
      .selectFrom('adminInvitations')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('acceptedAt', 'is', null)
      .execute()
  ).map((r) => r.id);

export const findInvitation = (trx: Executor, id: string) =>
  trx
    .selectFrom('adminInvitations')
    .select(['id', 'email', 'role', 'acceptedAt'])
    .where('id', '=', id)
    .executeTakeFirst();

export async function markInvitationAccepted(trx: Executor, id: string): Promise<void> {
  await trx.updateTable('adminInvitations').set({ acceptedAt: new Date() }).where('id', '=', id).execute();
}

/** Invitations not accepted whose newest link is still live, for the Team tab. */
export const listPendingInvitations = (db: Executor) =>
  db
    .selectFrom('adminInvitations as i')
    .innerJoin('magicLinkTokens as t', 't.invitationId', 'i.id')
    .select(['i.id', 'i.email', 'i.role', 'i.createdAt', 't.expiresAt'])
    .where('i.acceptedAt', 'is', null)
    .where('t.used', '=', false)
    .where('t.expiresAt', '>', new Date())
    .orderBy('i.createdAt', 'desc')
    .execute();
