import { z } from 'zod';
import { confirmPassword, samePasswords } from './auth';
import { email, newPassword, requiredText, uuid } from './common';
import { PASSWORD_MAX } from './constants';
import { INVALID_LINK } from './messages';

/** Admin roles, least to most (issue 14, docs/decisions/0610-admin-roles.md). */
export const ADMIN_ROLES = ['viewer', 'reviewer', 'owner'] as const;
export type AdminRoleName = (typeof ADMIN_ROLES)[number];
export const adminRole = z.enum(ADMIN_ROLES, { error: 'Role must be owner, reviewer or viewer' });

export const LAST_OWNER_MESSAGE = 'The team needs at least one owner: make someone else an owner first.';

export const inviteAdminInput = z.object({ email: email(), role: adminRole });
export type InviteAdminInput = z.input<typeof inviteAdminInput>;
export const adminIdInput = z.object({ id: uuid() });
export const setAdminRoleInput = z.object({ id: uuid(), role: adminRole });

const token = z.string({ error: 'Token is required' }).trim().min(1, 'Token is required').max(200, INVALID_LINK);
export const acceptInviteInput = z.object({
  token,
  fullName: requiredText('Full name is required'),
  password: newPassword(),
});
export type AcceptInviteInput = z.input<typeof acceptInviteInput>;

/** The invitation page's form (issue 36): the password typed twice. */
export const acceptInviteForm = acceptInviteInput
  .omit({ token: true })
  .extend({ confirmPassword: confirmPassword() })
  .refine(samePasswords.check, samePasswords.issue);

export const changeOwnPasswordInput = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(PASSWORD_MAX, 'Current password is incorrect'),
  newPassword: newPassword(),
});
export type ChangeOwnPasswordInput = z.input<typeof changeOwnPasswordInput>;

/** A session as the "your sessions" list names it: 16 hex characters of its hashed id. */
export const sessionRefInput = z.object({ ref: z.string().regex(/^[0-9a-f]{16}$/, 'Must be a session reference') });

const day = z.iso.date({ error: 'Must be a date (yyyy-mm-dd)' });
export const ACTIVITY_PAGE_SIZE = 50;

/** The Activity tab's filters (also its URL search params) and its page cursor. */
export const activityQuery = z.object({
  actor: z.string().trim().max(254, 'Actor is too long').optional(),
  eventType: z.string().trim().max(100, 'Event type is too long').optional(),
  dealerId: uuid().optional(),
  /** First day included (UTC). */
  from: day.optional(),
  /** Last day included (UTC). */
  to: day.optional(),
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, 'Invalid cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(ACTIVITY_PAGE_SIZE),
});
export type ActivityQuery = z.input<typeof activityQuery>;
/** The export takes the same filters, without the page. */
export const activityExportQuery = activityQuery.omit({ cursor: true, limit: true });

/** The Team section's confirmations (issue 36: the app's dialog, not the browser's confirm()). */
export const TEAM_CONFIRM = {
  remove: {
    title: 'Remove admin',
    confirm: 'Remove',
    body: (username: string) => `Remove ${username}? Their sessions end at once.`,
  },
  revoke: {
    title: 'Revoke invitation',
    confirm: 'Revoke',
    body: (email: string) => `Revoke the invitation of ${email}? Its link stops working at once.`,
  },
} as const;
