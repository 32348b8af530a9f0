import type { DB, Kysely } from '@dn/db';
import { decideReferralFlag, listReferralFlags, raiseReferralFlag } from '@dn/db/queries/referral-flags';
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

/**
 * A risk signal about one job (issue 45, decision 1001): the seller installed its own job
 * (`self_installed`) or its homeowner disputed it (`installation_disputed`). The referral is flagged,
 * opened again even when it had the signal before (each job is new evidence), so the Risk section
 * shows it with its reason and what it holds. Audited; the caller holds the entry.
 */
export async function flagJobRisk(
  trx: Kysely<DB>,
  ctx: Context,
  f: {
    referredDealerId: string;
    recruiterDealerId: string;
    signal: 'self_installed' | 'installation_disputed';
    reason: string;
    jobId: string;
  },
) {
  const flag = await raiseReferralFlag(
    trx,
    {
      referredDealerId: f.referredDealerId,
      recruiterDealerId: f.recruiterDealerId,
      signals: [f.signal],
      reason: f.reason,
    },
    true,
  );
  await audit(trx, ctx, {
    eventType: 'referral.flagged',
    category: 'system',
    message: `Referral flagged: ${f.reason}`,
    dealerId: f.referredDealerId,
    details: { flagId: flag?.id ?? null, signals: [f.signal], recruiterDealerId: f.recruiterDealerId, jobId: f.jobId },
  });
  return flag;
}
