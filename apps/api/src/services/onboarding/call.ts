import { findDealerRecord } from '@dn/db/queries/accounts';
import { bookOnboardingCall, findCallByToken, markOnboardingCall } from '@dn/db/queries/onboarding-calls';
import {
  type BookOnboardingCallInput,
  CALL_TIME_ZONE,
  CALL_WINDOWS,
  DEALER_STATUSES,
  ONBOARDING_MESSAGES,
} from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { isBusinessDay, localParts, zonedInstant } from '../../lib/business-days';
import { randomToken, sha256 } from '../../lib/tokens';
import { audit } from '../audit/audit';
import { onboardingCallEmail } from '../mail/onboarding-templates';
import { enqueueMail } from '../mail/outbox';
import { ownDealer } from './dealer';

/**
 * The onboarding call (issue 38; decision 0952): booked by the dealer on the free call's calendar
 * (a business day, within its windows, 9 AM to 8 PM Eastern), rebooked from the portal or from the
 * emailed one-time link without signing in; admins mark it held or a no-show.
 */

const FIRST_HOUR = CALL_WINDOWS.morning.startHour;
const LAST_HOUR = CALL_WINDOWS.evening.endHour;

/** The call's instant, or a 400 naming the field: in the future, on the business's calendar. */
function slotOf(input: BookOnboardingCallInput, now: Date): Date {
  const startsAt = zonedInstant(input.date, input.time, input.timeZone);
  if (startsAt <= now) {
    throw new AppError('INVALID_INPUT', ONBOARDING_MESSAGES.callInPast, {
      fieldErrors: { date: ONBOARDING_MESSAGES.callInPast },
    });
  }
  const business = localParts(startsAt, CALL_TIME_ZONE);
  if (!isBusinessDay(business.date) || business.hour < FIRST_HOUR || business.hour >= LAST_HOUR) {
    throw new AppError('INVALID_INPUT', ONBOARDING_MESSAGES.callOutsideHours, {
      fieldErrors: { time: ONBOARDING_MESSAGES.callOutsideHours },
    });
  }
  return startsAt;
}

/** Books or rebooks, in the caller's transaction: a new one-time link, a confirmation with it. */
async function book(
  ctx: Context,
  dealer: { id: string; email: string; fullName: string },
  input: BookOnboardingCallInput,
  how: string,
  usedTokenHash?: string,
) {
  const startsAt = slotOf(input, ctx.clock.now());
  const token = randomToken();
  const call = await ctx.db.transaction().execute(async (trx) => {
    const row = await bookOnboardingCall(
      trx,
      dealer.id,
      { date: input.date, time: input.time, timeZone: input.timeZone, startsAt, rescheduleTokenHash: sha256(token) },
      ctx.clock.now(),
      usedTokenHash,
    );
    if (!row && usedTokenHash) throw new AppError('TOKEN_EXPIRED', ONBOARDING_MESSAGES.rescheduleLinkInvalid);
    if (!row) throw new AppError('CONFLICT', ONBOARDING_MESSAGES.callHeld);
    await audit(trx, ctx, {
      eventType: 'onboarding_call.booked',
      category: 'dealer',
      dealerId: dealer.id,
      message: `Onboarding call ${how} for ${input.date} ${input.time} (${input.timeZone})`,
      details: { date: input.date, time: input.time, timeZone: input.timeZone, startsAt: startsAt.toISOString() },
    });
    await enqueueMail(
      trx,
      onboardingCallEmail(dealer, row, { publicUrl: ctx.config.publicUrl, token, reminder: false }),
    );
    return row;
  });
  ctx.mail.kick();
  return {
    ok: true as const,
    date: call.date,
    time: call.time,
    timeZone: call.timeZone,
    startsAt: call.startsAt.toISOString(),
    status: call.status,
  };
}

export async function bookOwnOnboardingCall(ctx: Context & { user: User }, input: BookOnboardingCallInput) {
  const dealer = await ownDealer(ctx);
  return book(ctx, dealer, input, 'booked');
}

/** From the emailed link: the token names the call, works once (the rebooking replaces it). */
export async function rescheduleByToken(ctx: Context, input: BookOnboardingCallInput & { token: string }) {
  const tokenHash = sha256(input.token);
  const found = await findCallByToken(ctx.db, tokenHash, ctx.clock.now());
  if (!found || (found.dealerStatus !== 'approved' && found.dealerStatus !== 'active')) {
    throw new AppError('TOKEN_EXPIRED', ONBOARDING_MESSAGES.rescheduleLinkInvalid);
  }
  return book(
    ctx,
    { id: found.dealerId, email: found.email, fullName: found.fullName },
    input,
    'rescheduled',
    tokenHash,
  );
}

export async function markOnboardingCallStatus(
  ctx: Context & { user: User },
  input: { id: string; status: 'held' | 'no_show' },
) {
  const dealer = await findDealerRecord(ctx.db, input.id, DEALER_STATUSES);
  if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await markOnboardingCall(trx, dealer.id, input.status, ctx.user.username, ctx.clock.now());
    if (!r) throw new AppError('NOT_FOUND', ONBOARDING_MESSAGES.callNotBooked);
    await audit(trx, ctx, {
      eventType: input.status === 'held' ? 'onboarding_call.held' : 'onboarding_call.no_show',
      category: 'admin',
      dealerId: dealer.id,
      message: `Onboarding call of ${r.date} marked ${input.status === 'held' ? 'held' : 'a no-show'}`,
      details: { status: input.status, date: r.date, time: r.time },
    });
    return r;
  });
  return { ok: true as const, status: row.status, date: row.date, time: row.time };
}
