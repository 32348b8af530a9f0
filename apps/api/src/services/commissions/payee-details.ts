import { findDealerReferrer } from '@dn/db/queries/payees';
import { raiseReferralFlag } from '@dn/db/queries/referral-flags';
import type { payoutProfileInput } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { audit } from '../audit/audit';
import { getPayoutProfile, savePayoutProfile } from '../payees/profile';
import * as ledger from './ledger';

/**
 * PUT /api/dealer/payout-profile (issue 39): the details are saved (services/payees), then
 * compared by keyed hash with every other dealer's. A TIN or bank account shared between a referred
 * dealer and their recruiter, or with any other dealer, flags the referral (decision 0964): its
 * pending commissions are held (ledger.hold) until an owner clears or voids the flag.
 */

type DealerContext = Context & { user: User };

const SIGNAL = { tin: 'shared_tin', account: 'shared_bank_account' } as const;

export async function savePayoutDetails(ctx: DealerContext, input: z.output<typeof payoutProfileInput>) {
  await ctx.db.transaction().execute(async (trx) => {
    const shared = await savePayoutProfile(trx, ctx, input);
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
  });
  return getPayoutProfile(ctx);
}
