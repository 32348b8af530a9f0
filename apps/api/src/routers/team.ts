import {
  acceptInviteInput,
  adminIdInput,
  changeOwnPasswordInput,
  inviteAdminInput,
  linkTokenInput,
  sessionRefInput,
  setAdminRoleInput,
} from '@dn/schema';
import { changeOwnPassword, endOwnSession, listOwnDevices, listOwnSessions } from '../services/team/own-account';
import {
  acceptInvitation,
  changeAdminRole,
  invitationByLink,
  inviteAdmin,
  listInvitations,
  listTeam,
  removeAdmin,
  revokeInvitation,
} from '../services/team/team';
import { adminProcedure, alone, ownerProcedure, publicProcedure, rest, router, sessionOnly } from '../trpc/init';

/** The admin team and each admin's own account (issue 14, docs/decisions/0610-admin-roles.md). */
export const teamRouter = router({
  list: ownerProcedure
    .meta(rest('GET', '/api/admin/team', 'The admins with their roles, and the pending invitations'))
    .query(({ ctx }) => listTeam(ctx)),
  // Issue 45: managing the team needs a signed-in owner, never a personal API token.
  invite: ownerProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(
      rest('POST', '/api/admin/team/invitations', 'Invites an admin by email with a role (a one-time link, 72 hours)'),
    )
    .input(inviteAdminInput)
    .mutation(({ ctx, input }) => inviteAdmin(ctx, input)),
  invitations: ownerProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/team/invitations',
        'The pending invitations: email, role, who sent it, when its link expires',
      ),
    )
    .query(({ ctx }) => listInvitations(ctx)),
  revokeInvitation: ownerProcedure
    .meta(sessionOnly)
    .meta(
      rest(
        'DELETE',
        '/api/admin/team/invitations/{id}',
        'Revokes a pending invitation: its link stops working at once',
      ),
    )
    .input(adminIdInput)
    .mutation(({ ctx, input }) => revokeInvitation(ctx, input.id)),
  setRole: ownerProcedure
    .meta(sessionOnly)
    .meta(rest('POST', '/api/admin/team/{id}/role', "Changes an admin's role; the last owner cannot be demoted"))
    .input(setAdminRoleInput)
    .mutation(({ ctx, input }) => changeAdminRole(ctx, input.id, input.role)),
  remove: ownerProcedure
    .meta(sessionOnly)
    .meta(
      rest(
        'DELETE',
        '/api/admin/team/{id}',
        'Removes an admin and ends their sessions; the last owner cannot be removed',
      ),
    )
    .input(adminIdInput)
    .mutation(({ ctx, input }) => removeAdmin(ctx, input.id)),
  invitation: publicProcedure
    .meta(
      rest(
        'POST',
        '/api/auth/invitation',
        'What an invitation link accepts (email and role), before anything is typed; 410 when it no longer works',
      ),
    )
    .input(linkTokenInput)
    .mutation(({ ctx, input }) => invitationByLink(ctx, input.token)),
  acceptInvite: publicProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(rest('POST', '/api/auth/accept-invite', 'Accepts an admin invitation: sets name and password, then signs in'))
    .input(acceptInviteInput)
    .mutation(({ ctx, input }) => acceptInvitation(ctx, input)),
  changePassword: adminProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/me/password',
        'Changes your own password (current one required); your other sessions end',
      ),
    )
    .input(changeOwnPasswordInput)
    .mutation(({ ctx, input }) => changeOwnPassword(ctx, input)),
  sessions: adminProcedure
    .meta(sessionOnly)
    .meta({ ...rest('GET', '/api/admin/me/sessions', 'Your own live sessions'), yours: true })
    .query(({ ctx }) => listOwnSessions(ctx)),
  devices: adminProcedure
    .meta(sessionOnly)
    .meta(rest('GET', '/api/admin/me/devices', 'The browsers remembered for your sign-ins'))
    .query(({ ctx }) => listOwnDevices(ctx)),
  endSession: adminProcedure
    .meta(sessionOnly)
    .meta(rest('DELETE', '/api/admin/me/sessions/{ref}', 'Ends one of your own sessions'))
    .input(sessionRefInput)
    .mutation(({ ctx, input }) => endOwnSession(ctx, input.ref)),
});
