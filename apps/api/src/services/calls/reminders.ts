import { listCallsToRemind, stampCallReminder } from '@dn/db/queries/call-schedules';
import { CALL_TIME_ZONE, CALL_WINDOWS } from '@dn/schema';
import type { Deps } from '../../context';
import { addDays, localDate, zonedTime } from '../../lib/business-days';
import { randomToken, sha256 } from '../../lib/tokens';
import { enqueueMail } from '../mail/outbox';
import { callReminderEmail } from '../mail/templates';

/**
 * The free call's reminder (issue 38, decision 0943): 24 hours before its window starts (in the calls'
 * zone), once. Each reminder is a conditional update (scheduled, not yet reminded) that stamps it and
 * stores the SHA-256 of a new one-time reschedule/cancel token, and the email queued in the same
 * transaction: sent once across instances, and never lost to a crash (both commit or neither).
 */

export const REMINDER_LEAD_MS = 24 * 60 * 60_000;

/** The page the reminder's link opens (web route /call/$token). */
export const callManageUrl = (publicUrl: string, token: string) => `${publicUrl}/call/${token}`;

/** When a call's window starts. */
export const callStartsAt = (call: { preferredDate: string; preferredTime: keyof typeof CALL_WINDOWS }) =>
  zonedTime(call.preferredDate, CALL_WINDOWS[call.preferredTime].startHour, CALL_TIME_ZONE);

/** The reminder sweep: resolves with how many reminders it queued. */
export async function sendCallReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const today = localDate(now, CALL_TIME_ZONE);
  const candidates = await listCallsToRemind(deps.db, today, addDays(today, 2));
  let sent = 0;
  for (const c of candidates) {
    const startsAt = callStartsAt(c);
    const lead = startsAt.getTime() - now.getTime();
    if (lead <= 0 || lead > REMINDER_LEAD_MS) continue;
    const token = randomToken();
    const done = await deps.db.transaction().execute(async (trx) => {
      // The link works until the call's window starts.
      const call = await stampCallReminder(trx, c.id, {
        sentAt: now,
        tokenHash: sha256(token),
        tokenExpiresAt: startsAt,
      });
      if (!call) return false;
      await enqueueMail(trx, callReminderEmail(call, { manageUrl: callManageUrl(deps.config.publicUrl, token) }));
      return true;
    });
    if (done) sent++;
  }
  if (sent > 0) deps.mail.kick();
  return sent;
}
