import { findDealerReferrer, findPayoutProfile, lockPayoutProfile } from '@dn/db/queries/payees';
import { raiseReferralFlag } from '@dn/db/queries/referral-flags';
import { PAYEE_MESSAGES, type payoutProfileInput } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { verifyDealerPassword } from '../dealers/own-account';
import { enqueueMail } from '../mail/outbox';
import { payoutDetailsChangedEmail } from '../mail/payee-templates';
import { changesDestination, DESTINATION_HOLD_MS, getPayoutProfile, last4, savePayoutProfile } from '../payees/profile';
import * as ledger from './ledger';

/**
 * PUT /api/dealer/payout-profile (issue 39): the details are saved (services/payees), then
 * compared by keyed hash with every other dealer's. A TIN or bank account shared between a referred
 * dealer and their recruiter, or with any other dealer, flags the referral (decision 0964): its
 * pending commissions are held (ledger.hold) until an owner clears or voids the flag.
 */

type DealerContext = Context & { user: User };

const SIGNAL = { tin: 'shared_tin', account: 'shared_bank_account' } as const;

const passwordNeeded = () =>
  new AppError('INVALID_INPUT', PAYEE_MESSAGES.currentPasswordRequired, {
    fieldErrors: { currentPassword: PAYEE_MESSAGES.currentPasswordRequired },
  });

/**
 * Issue 45 (decision 1020): a change of where payouts go (method, routing number, account number)
 * needs the dealer's current password, checked as a sign-in is (its budget spent before the hash),
 * emails the dealer at once with the old account's last 4 digits, and starts 3 days in which the new
 * destination is not paid (the batch holds the payee with the reason). The password is checked before
 * the transaction; the change is decided again on the locked row, so a change made meanwhile without
 * the password is refused.
 */
export async function savePayoutDetails(ctx: DealerContext, input: z.output<typeof payoutProfileInput>) {
  const seen = await findPayoutProfile(ctx.db, ctx.user.id);
  let verified = false;
  if (changesDestination(ctx, seen, input)) {
    if (!input.currentPassword) throw passwordNeeded();
    await verifyDealerPassword(ctx, input.currentPassword, 'payee.details_change_failed');
    verified = true;
  }
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockPayoutProfile(trx, ctx.user.id);
    const change = changesDestination(ctx, before, input);
    if (change && !verified) throw passwordNeeded();
    const now = ctx.clock.now();
    const shared = await savePayoutProfile(trx, ctx, input, change ? now : (before?.destinationChangedAt ?? null));
    if (change && before) {
      const after = {
        method: input.method,
        accountLast4: input.method === 'ach' && input.accountNumber ? last4(input.accountNumber) : null,
      };
      await enqueueMail(
        trx,
        payoutDetailsChangedEmail(
          { id: ctx.user.id, fullName: ctx.user.fullName, email: ctx.user.email ?? '' },
          {
            before: { method: before.method, accountLast4: before.method === 'ach' ? before.accountLast4 : null },
            after,
            payableFrom: new Date(now.getTime() + DESTINATION_HOLD_MS),
            ip: ctx.meta.ip ?? null,
          },
          { publicUrl: ctx.config.publicUrl },
        ),
      );
      await audit(trx, ctx, {
        eventType: 'payee.destination_changed',
        category: 'dealer',
        message: `${ctx.user.fullName} changed where their payouts go (the current password was given); the new details are paid from 3 days on`,
        dealerId: ctx.user.id,
        details: {
          before: { method: before.method, accountLast4: before.accountLast4 },
          after,
        },
      });
    }
    await flagShared(trx, ctx, shared);
    return change;
  });
  if (changed) ctx.mail.kick();
  return getPayoutProfile(ctx);
}

async function flagShared(
  trx: Parameters<typeof savePayoutProfile>[0],
  ctx: DealerContext,
  shared: Awaited<ReturnType<typeof savePayoutProfile>>,
) {
  if (shared.length === 0) return;
  const me = await findDealerReferrer(trx, ctx.user.id);
  // Each referral touched: mine (I share with my recruiter or another dealer), and that of every
  // referred dealer who shares with me (I am their recruiter, or another dealer).
  const flags = new Map<string, { recruiter: string; signals: Set<string>; withRecruiter: boolean }>();
  const add = (referred: string, recruiter: string, signals: string[], withRecruiter: boolean) => {
    const f = flags.get(referred) ?? { recruiter, signals: new Set<string>(), withRecruiter: false };
    for (const x of signals) f.signals.add(x);
    f.withRecruiter ||= withRecruiter;
    flags.set(referred, f);
  };
  for (const s of shared) {
    const signals = [...(s.sameTin ? [SIGNAL.tin] : []), ...(s.sameAccount ? [SIGNAL.account] : [])];
    if (me?.referredBy) add(ctx.user.id, me.referredBy, signals, s.dealerId === me.referredBy);
    if (s.referredBy) add(s.dealerId, s.referredBy, signals, s.referredBy === ctx.user.id);
  }
  for (const [referred, f] of flags) {
    const signals = [...f.signals].sort();
    const what = signals.map((s) => (s === SIGNAL.tin ? 'TIN' : 'bank account')).join(' and ');
    const reason = `Same ${what} as ${f.withRecruiter ? 'their recruiter' : 'another dealer'}`;
    const flag = await raiseReferralFlag(trx, {
      referredDealerId: referred,
      recruiterDealerId: f.recruiter,
      signals,
      reason,
    });
    if (!flag) continue;
    const held = await ledger.hold(trx, referred);
    await audit(trx, ctx, {
      eventType: 'referral.flagged',
      category: 'system',
      message: `Referral flagged: ${reason}; ${held.length} pending commission(s) held`,
      dealerId: referred,
      details: { flagId: flag.id, signals, recruiterDealerId: f.recruiter, commissionIds: held.map((h) => h.id) },
    });
  }
}
