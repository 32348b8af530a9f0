import { setAdminPassword } from '@dn/db/queries/accounts';
import { findAdminForUpdate } from '@dn/db/queries/admins';
import { endOtherSessionsOfUser, endSessionOfUserByRef, listSessionsOfUser } from '@dn/db/queries/sessions';
import type { changeOwnPasswordInput } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/password';
import { audit } from '../audit/audit';

/** What every admin may do to their own account, whatever their role (issue 14). */

type AdminCtx = Context & { user: User };

/** Changes the caller's password (the current one required); every other session of theirs ends. */
export async function changeOwnPassword(ctx: AdminCtx, input: z.output<typeof changeOwnPasswordInput>) {
  const current = await findAdminForUpdate(ctx.db, ctx.user.id);
  if (!current || !(await verifyPassword(current.passwordHash, input.currentPassword))) {
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
  const hash = await hashPassword(input.newPassword);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await setAdminPassword(trx, ctx.user.id, hash);
    const n = await endOtherSessionsOfUser(trx, ctx.user.id, ctx.meta.sessionRef);
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

export async function endOwnSession(ctx: AdminCtx, ref: string) {
  const n = await endSessionOfUserByRef(ctx.db, ctx.user.id, ref);
  if (n === 0) throw new AppError('NOT_FOUND', 'Session not found');
  await audit(ctx.db, ctx, {
    eventType: 'admin.session_ended',
    category: 'auth',
    message: `${ctx.user.username} ended one of their sessions`,
    details: { ref },
  });
  return { ok: true as const };
}
