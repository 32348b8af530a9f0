import type { DB, Kysely } from '@dn/db';
import { insertCallSchedule } from '@dn/db/queries/call-schedules';
import type { ScheduleCall } from '@dn/schema';
import type { Context } from '../../context';
import { AppError, isUniqueViolation } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { hit, spendRecipient } from '../accounts/rate-limit';
import { type AuditEntry, audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { callConfirmationEmail } from '../mail/templates';

export const DUPLICATE_CALL = 'You already booked a call for this date and time window. Please choose another.';

/**
 * Books a free call (status scheduled) and queues the visitor's confirmation with an .ics
 * file. The schema refuses past dates (counted in CALL_TIME_ZONE); the partial unique index on
 * (lower(email), date, window) refuses a second booking of the same slot, even a simultaneous one.
 */
export async function scheduleCall(ctx: Context, input: ScheduleCall) {
  await hit(ctx.db, `call:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.callPerIp);
  const call = await confirmSlot(
    ctx,
    async (trx) => {
      // One mailbox gets at most a few anonymous emails an hour (decision 0701): over it, 429 and
      // nothing is stored, so no booking waits that its visitor was not told about.
      const recipient = await spendRecipient(trx, ctx.limits.mailPerRecipient, input.email);
      if (!recipient.allowed) throw recipient.error;
      return insertCallSchedule(trx, {
        name: input.name,
        email: input.email,
        phone: input.phone,
        preferredDate: input.preferredDate,
        preferredTime: input.preferredTime,
        status: 'scheduled',
        notes: input.notes ?? null,
        updatedAt: new Date(),
      });
    },
    (row) => ({
      eventType: 'call.scheduled',
      category: 'call',
      message: `Call booked by ${row.email} for ${row.preferredDate} (${row.preferredTime})`,
      details: { callId: row.id, preferredDate: row.preferredDate, preferredTime: row.preferredTime },
    }),
  );
  return { ok: true as const, id: call.id, ...slotOf(call) };
}

type SlotRow = Parameters<typeof callConfirmationEmail>[0] & { status: string };

/**
 * A call's slot taken or moved (issue 38 reschedules too): `write` stores it, then the audit row and
 * the confirmation (with its .ics) go in the same transaction; the slot's partial unique index makes
 * a taken slot 409, even under a race.
 */
export async function confirmSlot<R extends SlotRow>(
  ctx: Context,
  write: (trx: Kysely<DB>) => Promise<R>,
  entry: (row: R) => AuditEntry,
): Promise<R> {
  const row = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const r = await write(trx);
      await audit(trx, ctx, entry(r));
      await enqueueMail(trx, callConfirmationEmail(r, { publicUrl: ctx.config.publicUrl }));
      return r;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', DUPLICATE_CALL);
      throw err;
    });
  ctx.mail.kick();
  return row;
}

/** What a booking or a move answers about the slot. */
export const slotOf = (c: SlotRow) => ({
  preferredDate: c.preferredDate,
  preferredTime: c.preferredTime,
  status: c.status,
});
