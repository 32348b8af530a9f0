import {
  lockCallSchedule,
  listCallSchedules as readCallSchedules,
  updateCallStatus,
} from '@dn/db/queries/call-schedules';
import type { CallStatus } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { adminVersion } from '../accounts/users';
import { audit } from '../audit/audit';

/** Call requests as the admin follows them up. */

/** Scheduled calls first, soonest first; then the others, newest first. */
export function listCallSchedules(ctx: Context) {
  return readCallSchedules(ctx.db);
}

/** The list is read from the call requests alone (decision 0791). */
export function callSchedulesVersion(ctx: Context & { user: User }): string | null {
  return adminVersion(ctx.user, 'calls');
}

export async function setCallStatus(ctx: Context & { user: User }, id: string, status: CallStatus) {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockCallSchedule(trx, id);
    if (!before) throw new AppError('NOT_FOUND', 'Call request not found');
    if (before.status === status) return;
    await updateCallStatus(trx, id, status);
    await audit(trx, ctx, {
      eventType: `call.${status}`,
      category: 'call',
      message: `${ctx.user.username} marked the call with ${before.email} ${status}`,
      details: { callId: id, email: before.email, before: { status: before.status }, after: { status } },
    });
  });
  return { ok: true as const, status };
}
