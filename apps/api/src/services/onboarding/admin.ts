import { findDealerRecord } from '@dn/db/queries/accounts';
import { signaturesOf } from '@dn/db/queries/agreements';
import { complianceRemindersOf } from '@dn/db/queries/dealer-compliance';
import { DEALER_STATUSES } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { ownDealer } from './dealer';
import { onboardingOf } from './status';

/** GET /api/dealer/onboarding: the signed-in dealer's checklist. */
export async function ownOnboarding(ctx: Context & { user: User }) {
  const dealer = await ownDealer(ctx);
  return onboardingOf(ctx.db, dealer, ctx.clock.now());
}

/**
 * The admin's view of one dealer's onboarding: the checklist, every agreement signature (each
 * version signed is kept) and the expiry reminders sent.
 */
export async function dealerOnboarding(ctx: Context, dealerId: string) {
  const dealer = await findDealerRecord(ctx.db, dealerId, DEALER_STATUSES);
  if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
  const [onboarding, signatures, reminders] = await Promise.all([
    onboardingOf(ctx.db, dealer, ctx.clock.now()),
    signaturesOf(ctx.db, dealer.id),
    complianceRemindersOf(ctx.db, dealer.id),
  ]);
  return {
    ...onboarding,
    approved: dealer.approvalDate !== null,
    signatures: signatures.map((s) => ({ ...s, signedAt: s.signedAt.toISOString() })),
    reminders: reminders.map((r) => ({ ...r, sentAt: r.sentAt.toISOString() })),
  };
}
