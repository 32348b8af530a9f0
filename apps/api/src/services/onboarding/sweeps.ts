import { claimComplianceReminders } from '@dn/db/queries/dealer-compliance';
import { claimCallReminders, setRescheduleToken } from '@dn/db/queries/onboarding-calls';
import { CALL_TIME_ZONE, ONBOARDING_CALL_REMINDER_HOURS, todayIn } from '@dn/schema';
import type { Deps } from '../../context';
import { randomToken, sha256 } from '../../lib/tokens';
import { complianceExpiryEmail, onboardingCallEmail } from '../mail/onboarding-templates';
import { enqueueMail } from '../mail/outbox';

/**
 * Onboarding's periodic work (issue 38), as sweeps (services/scheduler/sweeps.ts): each claims what
 * is due with a conditional write and queues its emails in the same transaction, so two instances
 * or a rerun after a crash send each reminder once.
 */

const BATCH = 200;

/** Booked onboarding calls starting within 24 hours: one reminder each, with a fresh reschedule link. */
export async function remindOnboardingCalls(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const horizon = new Date(now.getTime() + ONBOARDING_CALL_REMINDER_HOURS * 3_600_000);
  const sent = await deps.db.transaction().execute(async (trx) => {
    const due = await claimCallReminders(trx, now, horizon, BATCH);
    for (const call of due) {
      const token = randomToken();
      await setRescheduleToken(trx, call.dealerId, sha256(token));
      await enqueueMail(
        trx,
        onboardingCallEmail({ id: call.dealerId, email: call.email, fullName: call.fullName }, call, {
          publicUrl: deps.config.publicUrl,
          token,
          reminder: true,
        }),
      );
    }
    return due.length;
  });
  if (sent > 0) deps.mail.kick();
  return sent;
}

/** Insurance certificates and licences expiring within 30 and within 7 days: one reminder each. */
export async function remindComplianceExpiries(deps: Deps): Promise<number> {
  const today = todayIn(CALL_TIME_ZONE, deps.clock.now());
  const sent = await deps.db.transaction().execute(async (trx) => {
    const due = await claimComplianceReminders(trx, today, BATCH);
    for (const r of due) {
      await enqueueMail(
        trx,
        complianceExpiryEmail({ id: r.dealerId, email: r.email, fullName: r.fullName }, r, {
          publicUrl: deps.config.publicUrl,
        }),
      );
    }
    return due.length;
  });
  if (sent > 0) deps.mail.kick();
  return sent;
}
