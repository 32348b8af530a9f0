import { decideReferralFlag, listReferralFlags } from '@dn/db/queries/referral-flags';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import * as ledger from './ledger';

/** An owner's decision on a flagged referral (issue 35, finding 6; decision 0895). */

/**
 * An owner clears an open flag (its held commissions become pending, then follow the usual hold
 * and approval) or voids it (they are voided); audited with the owner's name.
 */
export async function decideFlag(
  ctx: Context & { user: User },
  id: string,
  decision: 'clear' | 'void',
  /** the owner's words (the Risk section asks for them; issue 39) */
  why?: string,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const status = decision === 'clear' ? 'cleared' : 'voided';
    const flag = await decideReferralFlag(trx, id, status, ctx.user.username);
    if (!flag) throw new AppError('CONFLICT', 'This referral flag is unknown or already decided');
    const moved = await ledger.release(trx, flag.referredDealerId, status, flag.reason);
    await audit(trx, ctx, {
      eventType: `referral.flag_${status}`,
      category: 'admin',
      message: `${ctx.user.username} ${status} a flagged referral (${flag.reason}); ${moved.length} held commission(s) ${status === 'cleared' ? 'now pending' : 'voided'}${why ? `: ${why}` : ''}`,
      dealerId: flag.referredDealerId,
      details: {
        flagId: flag.id,
        recruiterDealerId: flag.recruiterDealerId,
        signals: flag.signals,
        ...(why ? { decisionReason: why } : {}),
        commissionIds: moved.map((m) => m.id),
        before: { status: 'open' },
        after: { status },
      },
    });
    return { id: flag.id, status, commissions: moved.length };
  });
}

/** GET /api/admin/risk: the flagged referrals of a status with their evidence (signals, reason, what is held). */
export async function listRisk(ctx: Context, status: 'open' | 'cleared' | 'voided') {
  const rows = await listReferralFlags(ctx.db, status);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    signals: r.signals,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    referred: { id: r.referredDealerId, name: r.referredName, email: r.referredEmail },
    recruiter: { id: r.recruiterDealerId, name: r.recruiterName, email: r.recruiterEmail },
    held: { count: Number(r.heldCount), amount: r.heldAmount },
  }));
}
