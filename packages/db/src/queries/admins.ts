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
    .select(['id', 'email', 'role', 'acceptedAt', 'invitedBy'])
    .where('id', '=', id)
    .executeTakeFirst();

export async function markInvitationAccepted(trx: Executor, id: string): Promise<void> {
  await trx.updateTable('adminInvitations').set({ acceptedAt: new Date() }).where('id', '=', id).execute();
}

/** Invitations not accepted whose newest link is still live, with who sent them, for the Team tab. */
export const listPendingInvitations = (db: Executor) =>
  db
    .selectFrom('adminInvitations as i')
    .innerJoin('magicLinkTokens as t', 't.invitationId', 'i.id')
    .leftJoin('admins as a', 'a.id', 'i.invitedBy')
    .select(['i.id', 'i.email', 'i.role', 'i.createdAt', 't.expiresAt', 'a.username as invitedBy'])
    .where('i.acceptedAt', 'is', null)
    .where('t.used', '=', false)
    .where('t.expiresAt', '>', new Date())
    .orderBy('i.createdAt', 'desc')
    .execute();

/**
 * Revokes the pending invitations among `ids` (issue 35, finding 7): their unused links are spent in
 * the same statement that picks them, so a link being accepted at the same moment either wins (its
 * invitation is accepted and not revoked) or fails. Returns the invitations revoked.
 */
export async function revokePendingInvitations(
  trx: Executor,
  where: { id: string } | { invitedBy: string },
): Promise<{ id: string; email: string; role: AdminRole }[]> {
  const { rows } = await sql<{ id: string; email: string; role: AdminRole }>`
    with spent as (
      update magic_link_tokens t set used = true
      from admin_invitations i
      where t.invitation_id = i.id and t.used = false and t.expires_at > now() and i.accepted_at is null
        and ${'id' in where ? sql`i.id = ${where.id}` : sql`i.invited_by = ${where.invitedBy}`}
      returning i.id, i.email, i.role
    )
    select distinct id, email, role from spent`.execute(trx);
  return rows;
}

/** Whether the admin `id` is an owner now (the accept of an invitation checks its inviter). */
export const isOwner = async (db: Executor, id: string | null): Promise<boolean> =>
  id !== null &&
  (await db.selectFrom('admins').select('id').where('id', '=', id).where('role', '=', 'owner').executeTakeFirst()) !==
    undefined;
