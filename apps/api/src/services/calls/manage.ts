import { findCallByManageToken, useCallManageToken } from '@dn/db/queries/call-schedules';
import { CALL_LINK_NOT_FOUND, type RescheduleCall } from '@dn/schema';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { sha256 } from '../../lib/tokens';
import { hit } from '../accounts/rate-limit';
import { audit } from '../audit/audit';
import { confirmSlot, slotOf } from './booking';

/**
 * The reminder's one-time link (issue 38, decision 0943): without signing in, its holder sees the
 * call and reschedules or cancels it, once. The link stops working when used, when the call's window
 * starts, or when the call is no longer scheduled (an admin marked it).
 */

async function liveCall(ctx: Context, token: string) {
  const call = await findCallByManageToken(ctx.db, sha256(token));
  // Unknown, used (its hash cleared), past its window's start, or no longer scheduled: the same 404.
  const live =
    call?.status === 'scheduled' &&
    call.manageTokenExpiresAt !== null &&
    new Date(call.manageTokenExpiresAt) > ctx.clock.now();
  if (!call || !live) throw new AppError('NOT_FOUND', CALL_LINK_NOT_FOUND);
  return call;
}

export async function callByManageToken(ctx: Context, token: string) {
  const c = await liveCall(ctx, token);
  return { name: c.name, preferredDate: c.preferredDate, preferredTime: c.preferredTime, status: c.status };
}

export async function cancelCallByToken(ctx: Context, token: string) {
  await hit(ctx.db, `call:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.callPerIp);
  const now = ctx.clock.now();
  const call = await ctx.db.transaction().execute(async (trx) => {
    const row = await useCallManageToken(trx, sha256(token), now, { status: 'cancelled' });
    if (!row) throw new AppError('NOT_FOUND', CALL_LINK_NOT_FOUND);
    await audit(trx, ctx, {
      eventType: 'call.cancelled',
      category: 'call',
      message: `${row.email} cancelled their call of ${row.preferredDate} (${row.preferredTime}) from the reminder's link`,
      details: { callId: row.id, by: 'link' },
    });
    return row;
  });
  return { ok: true as const, status: call.status };
}

export async function rescheduleCallByToken(ctx: Context, input: RescheduleCall) {
  await hit(ctx.db, `call:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.callPerIp);
  const now = ctx.clock.now();
  // A new confirmation (with its .ics, same UID) goes out; the new slot gets its own reminder.
  const call = await confirmSlot(
    ctx,
    async (trx) => {
      const row = await useCallManageToken(trx, sha256(input.token), now, {
        preferredDate: input.preferredDate,
        preferredTime: input.preferredTime,
      });
      if (!row) throw new AppError('NOT_FOUND', CALL_LINK_NOT_FOUND);
      return row;
    },
    (row) => ({
      eventType: 'call.rescheduled',
      category: 'call',
      message: `${row.email} moved their call to ${row.preferredDate} (${row.preferredTime}) from the reminder's link`,
      details: { callId: row.id, preferredDate: row.preferredDate, preferredTime: row.preferredTime },
    }),
  );
  return { ok: true as const, ...slotOf(call) };
}
