import { setAdminPassword } from '@dn/db/queries/accounts';
import { findAdminForUpdate } from '@dn/db/queries/admins';
import { endOtherSessionsOfUser, endSessionOfUserByRef, listSessionsOfUser } from '@dn/db/queries/sessions';
import type { changeOwnPasswordInput } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { assertNotCommonPassword, hashPassword, verifyPassword } from '../../lib/password';
import { deviceAccount, devicesOf, forgetDevice, revokeOtherDevices } from '../accounts/devices';
import { release } from '../accounts/rate-limit';
import { reserveSignIn, tellOwner } from '../accounts/sign-in';
import { audit } from '../audit/audit';

/** What every admin may do to their own account, whatever their role (issue 14). */

type AdminCtx = Context & { user: User };

/**
 * Changes the caller's password (the current one required, checked as a sign-in is: it spends the
 * account's sign-in budget before the hash, issue 35 finding 2); every other session and remembered
 * device of theirs ends.
 */
export async function changeOwnPassword(ctx: AdminCtx, input: z.output<typeof changeOwnPasswordInput>) {
  assertNotCommonPassword(input.newPassword, 'newPassword');
  const account = ctx.user.username;
  const reservation = await reserveSignIn(ctx, 'admin', account);
  const current = await findAdminForUpdate(ctx.db, ctx.user.id);
  if (
    !current ||
    !(await verifyPassword(current.passwordHash, input.currentPassword, deviceAccount('admin', account)))
  ) {
    await tellOwner(ctx, 'admin', account);
    await audit(ctx.db, ctx, {
      eventType: 'admin.password_change_failed',
      category: 'auth',
      message: `${ctx.user.username} gave a wrong current password`,
      success: false,
    });
    throw new AppError('INVALID_INPUT', 'Current password is incorrect', {
      fieldErrors: { currentPassword: 'Current password is incorrect' },
    });
  }
  await release(ctx.db, reservation);
  const hash = await hashPassword(input.newPassword);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await setAdminPassword(trx, ctx.user.id, hash);
    const n = await endOtherSessionsOfUser(trx, ctx.user.id, ctx.meta.sessionRef, 'password_changed');
    await revokeOtherDevices(ctx, trx);
    await audit(trx, ctx, {
      eventType: 'admin.password_changed',
      category: 'auth',
      message: `${ctx.user.username} changed their password`,
      details: { otherSessionsEnded: n },
    });
    return n;
  });
  return { ok: true as const, otherSessionsEnded: ended };
}

export async function listOwnSessions(ctx: AdminCtx) {
  const sessions = await listSessionsOfUser(ctx.db, ctx.user.id);
  return sessions
    .map((s) => ({ ...s, current: s.ref === ctx.meta.sessionRef }))
    .sort(
      (a, b) =>
        Number(b.current) - Number(a.current) || (b.lastSeenAt?.getTime() ?? 0) - (a.lastSeenAt?.getTime() ?? 0),
    );
}

/**
 * The browsers remembered for the caller's sign-ins (decision 0630, issue 35): each has a sign-in
 * budget of its own until a password change (or, for a dealer, a reset or "sign out everywhere")
 * revokes it. Shown under the sessions.
 */
export const listOwnDevices = (ctx: AdminCtx) => devicesOf(ctx);

/** Ends one of the caller's sessions, or forgets one of their remembered devices, by its ref. */
export async function endOwnSession(ctx: AdminCtx, ref: string) {
  const n = (await endSessionOfUserByRef(ctx.db, ctx.user.id, ref)) || (await forgetDevice(ctx, ref));
  if (n === 0) throw new AppError('NOT_FOUND', 'Session not found');
  await audit(ctx.db, ctx, {
    eventType: 'admin.session_ended',
    category: 'auth',
    message: `${ctx.user.username} ended one of their sessions`,
    details: { ref },
  });
  return { ok: true as const };
}
