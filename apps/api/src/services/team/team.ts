import type { DB, Kysely } from '@dn/db';
import {
  deleteAdmin,
  findAdminByUsernameCi,
  findAdminForUpdate,
  findInvitation,
  insertAdminWithRole,
  insertInvitation,
  isOwner,
  listAdmins,
  listPendingInvitations,
  lockOwners,
  markInvitationAccepted,
  openInvitationIds,
  revokePendingInvitations,
  setAdminRole,
} from '@dn/db/queries/admins';
import {
  findInvitationByToken,
  findToken,
  insertInviteToken,
  retireInviteTokens,
  useInviteToken,
} from '@dn/db/queries/magic-link-tokens';
import { endSessionsOfUser } from '@dn/db/queries/sessions';
import {
  type AdminRoleName,
  type acceptInviteInput,
  EXPIRED_LINK,
  INVALID_LINK,
  type inviteAdminInput,
  LAST_OWNER_MESSAGE,
  TOKEN_SHAPE,
  TOKEN_TTL_HOURS,
} from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { assertNotCommonPassword, hashPassword } from '../../lib/password';
import { randomToken, sha256 } from '../../lib/tokens';
import { loadSessionUser, publicUser } from '../accounts/users';
import { audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { adminInviteEmail } from '../mail/templates';

/**
 * The admin team (issue 14): an owner invites, changes roles and removes; the invitee accepts.
 * The last-owner rule holds under concurrency: every change that could remove an owner locks
 * the owners' rows first (lockOwners), so of two owners demoting each other one waits and then
 * sees it is the last (docs/decisions/0610-admin-roles.md).
 */

type AdminCtx = Context & { user: User };

export const INVITATION_NOT_FOUND = 'No pending invitation with this id';

export async function listTeam(ctx: AdminCtx) {
  const [admins, invitations] = await Promise.all([listAdmins(ctx.db), listPendingInvitations(ctx.db)]);
  return { admins: admins.map((a) => ({ ...a, isYou: a.id === ctx.user.id })), invitations };
}

/** The pending invitations (issue 35, finding 7): who was invited, as what, by whom, until when. */
export async function listInvitations(ctx: AdminCtx) {
  const rows = await listPendingInvitations(ctx.db);
  return {
    items: rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: r.role,
      invitedBy: r.invitedBy,
      expiresAt: new Date(r.expiresAt).toISOString(),
    })),
  };
}

/** Revokes a pending invitation: its link stops working at once; 404 when none is pending. */
export async function revokeInvitation(ctx: AdminCtx, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const [revoked] = await revokePendingInvitations(trx, { id });
    if (!revoked) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND);
    await audit(trx, ctx, {
      eventType: 'admin.invitation_revoked',
      category: 'admin',
      message: `${ctx.user.username} revoked the invitation of ${revoked.email} as ${revoked.role}`,
      details: { email: revoked.email, role: revoked.role, invitationId: revoked.id },
    });
  });
  return { ok: true as const };
}

/**
 * An inviter who stops being an owner (demoted or removed) takes their pending invitations with
 * them: revoked in the same transaction, each audited.
 */
async function revokeInvitationsOf(trx: Kysely<DB>, ctx: AdminCtx, adminId: string, username: string, why: string) {
  for (const r of await revokePendingInvitations(trx, { invitedBy: adminId })) {
    await audit(trx, ctx, {
      eventType: 'admin.invitation_revoked',
      category: 'admin',
      message: `The invitation of ${r.email} as ${r.role} was revoked: ${username} ${why}`,
      details: { email: r.email, role: r.role, invitationId: r.id, inviter: username },
    });
  }
}

/** Invites an admin by email: a one-time link (hashed at rest, 72 h); a new invitation supersedes older links. */
export async function inviteAdmin(ctx: AdminCtx, input: z.output<typeof inviteAdminInput>) {
  if (await findAdminByUsernameCi(ctx.db, input.email)) {
    throw new AppError('CONFLICT', 'An admin with this email already exists');
  }
  const invitation = await ctx.db.transaction().execute(async (trx) => {
    await retireInviteTokens(trx, await openInvitationIds(trx, input.email));
    const inv = await insertInvitation(trx, { email: input.email, role: input.role, invitedBy: ctx.user.id });
    const token = randomToken();
    await insertInviteToken(trx, {
      tokenHash: sha256(token),
      invitationId: inv.id,
      expiresAt: new Date(Date.now() + TOKEN_TTL_HOURS.admin_invite * 3_600_000),
    });
    await enqueueMail(trx, {
      ...adminInviteEmail(input.email, {
        publicUrl: ctx.config.publicUrl,
        token,
        role: input.role,
        invitedBy: ctx.user.fullName === 'Admin' ? ctx.user.username : ctx.user.fullName,
      }),
      // The link's hash (never the link), so an invitation superseded before it leaves is not sent.
      tokenHash: sha256(token),
    });
    await audit(trx, ctx, {
      eventType: 'admin.invited',
      category: 'admin',
      message: `${ctx.user.username} invited ${input.email} as ${input.role}`,
      details: { email: input.email, role: input.role, invitationId: inv.id },
    });
    return inv;
  });
  ctx.mail.kick();
  return { id: invitation.id, email: invitation.email, role: invitation.role };
}

/** Whether removing `id` from the owners (by demotion or removal) leaves none. Call after lockOwners. */
const wouldLeaveNoOwner = (owners: string[], id: string) => owners.length === 1 && owners[0] === id;

export async function changeAdminRole(ctx: AdminCtx, id: string, role: AdminRoleName) {
  await ctx.db.transaction().execute(async (trx) => {
    const owners = await lockOwners(trx);
    const target = await findAdminForUpdate(trx, id);
    if (!target) throw new AppError('NOT_FOUND', 'Admin not found');
    if (target.role === role) return;
    if (role !== 'owner' && wouldLeaveNoOwner(owners, id)) throw new AppError('CONFLICT', LAST_OWNER_MESSAGE);
    await setAdminRole(trx, id, role);
    if (target.role === 'owner') await revokeInvitationsOf(trx, ctx, id, target.username, `is now ${role}`);
    await audit(trx, ctx, {
      eventType: 'admin.role_changed',
      category: 'admin',
      message: `${ctx.user.username} changed ${target.username} from ${target.role} to ${role}`,
      details: { adminId: id, from: target.role, to: role },
    });
  });
  return { ok: true as const };
}

/** Removes an admin; their sessions end in the same transaction, so no request of theirs follows. */
export async function removeAdmin(ctx: AdminCtx, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const owners = await lockOwners(trx);
    const target = await findAdminForUpdate(trx, id);
    if (!target) throw new AppError('NOT_FOUND', 'Admin not found');
    if (wouldLeaveNoOwner(owners, id)) throw new AppError('CONFLICT', LAST_OWNER_MESSAGE);
    // Before the row goes (invited_by is then set null): their pending invitations go with them.
    await revokeInvitationsOf(trx, ctx, id, target.username, 'was removed');
    await deleteAdmin(trx, id);
    await endSessionsOfUser(trx, id);
    await audit(trx, ctx, {
      eventType: 'admin.removed',
      category: 'admin',
      message: `${ctx.user.username} removed ${target.username} (${target.role})`,
      details: { adminId: id, role: target.role },
    });
  });
  return { ok: true as const };
}

/** The invitee sets a name and password: the admin is created with the invited role and signed in. */
/**
 * What an invitation link accepts, for its page before anything is typed (issue 36): the email
 * (the username to be) and the role. Throws as acceptInvitation would for a dead link.
 */
export async function invitationByLink(ctx: Context, token: string) {
  if (!TOKEN_SHAPE.test(token)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  const inv = await findInvitationByToken(ctx.db, sha256(token));
  if (!inv) throw new AppError('INVALID_INPUT', INVALID_LINK);
  if (inv.used || inv.acceptedAt || new Date(inv.expiresAt) <= new Date() || !(await isOwner(ctx.db, inv.invitedBy)))
    throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
  return { email: inv.email, role: inv.role };
}

export async function acceptInvitation(ctx: Context, input: z.output<typeof acceptInviteInput>) {
  if (!TOKEN_SHAPE.test(input.token)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  const hash = sha256(input.token);
  // A cheap look first: nobody makes the server hash a password for a link that cannot work.
  const pending = await findToken(ctx.db, hash);
  if (pending?.purpose !== 'admin_invite') throw new AppError('INVALID_INPUT', INVALID_LINK);
  if (pending.used || new Date(pending.expiresAt) <= new Date()) throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
  assertNotCommonPassword(input.password, 'password');
  const passwordHash = await hashPassword(input.password);
  const admin = await ctx.db.transaction().execute(async (trx) => {
    const used = await useInviteToken(trx, hash);
    if (!used) throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
    const inv = await findInvitation(trx, used.invitationId);
    if (!inv || inv.acceptedAt) throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
    // Only an owner's invitation stands: one sent by an admin since demoted or removed does not.
    if (!(await isOwner(trx, inv.invitedBy))) throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
    if (await findAdminByUsernameCi(trx, inv.email))
      throw new AppError('CONFLICT', 'An admin with this email already exists');
    const a = await insertAdminWithRole(trx, {
      username: inv.email,
      email: inv.email,
      fullName: input.fullName,
      role: inv.role,
      passwordHash,
    });
    await markInvitationAccepted(trx, inv.id);
    await audit(
      trx,
      { ...ctx, user: null },
      {
        eventType: 'admin.invitation_accepted',
        category: 'admin',
        message: `${inv.email} joined the admin team as ${inv.role}`,
        details: { actor: inv.email, adminId: a.id, role: inv.role, invitationId: inv.id },
      },
    );
    return a;
  });
  await ctx.session.signIn({ id: admin.id, role: 'admin' });
  const user = await loadSessionUser(ctx.db, { userId: admin.id, role: 'admin' });
  return { user: publicUser(user!) };
}
