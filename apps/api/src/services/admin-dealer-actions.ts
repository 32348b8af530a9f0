import type { DB, Kysely } from '@dn/db';
import { findDealerForAdmin } from '@dn/db/queries/admin-dealers';
import { ACTIVE_STATUSES, type DealerStatus, type Tier } from '@dn/schema';
import { AppError } from '../lib/app-error';
import { endSessionsOfUser } from '../plugins/session';
import type { Context, User } from '../trpc/context';
import { queueApprovalEmail, queueResetEmail } from './account-emails';
import { audit } from './audit';

/** Admin actions on one dealer (docs/decisions/0300-admin-approval-and-access.md). */

type AdminContext = Context & { user: User };
type Dealer = NonNullable<Awaited<ReturnType<typeof findDealerForAdmin>>>;

const NOT_FOUND = 'Dealer not found';
const canSignIn = (s: DealerStatus) => ACTIVE_STATUSES.includes(s);

async function lockDealer(trx: Kysely<DB>, id: string): Promise<Dealer> {
  const dealer = await findDealerForAdmin(trx, id, true);
  if (!dealer) throw new AppError('NOT_FOUND', NOT_FOUND);
  return dealer;
}

/**
 * Approves a dealer: status approved, access granted, and the approval email with a
 * set-password link, all in one transaction. The UPDATE ... WHERE status not in (approved, active)
 * is the guard: of two admins approving at once only one gets the row back, so there is one
 * approval, one audit row and one email. Approving an approved or active dealer changes nothing.
 */
export async function approveDealer(ctx: AdminContext, id: string) {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('dealers')
      .set({
        status: 'approved',
        accessGranted: true,
        approvalDate: new Date(),
        approvedBy: ctx.user.username,
        rejectionReason: null,
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .where('status', 'not in', [...ACTIVE_STATUSES])
      .returning(['id', 'email', 'fullName', 'tier', 'status'])
      .executeTakeFirst();
    if (!updated) {
      const exists = await findDealerForAdmin(trx, id);
      if (!exists) throw new AppError('NOT_FOUND', NOT_FOUND);
      return { changed: false as const, dealer: exists };
    }
    await queueApprovalEmail(trx, updated, ctx.config);
    await audit(trx, ctx, {
      eventType: 'dealer.approved',
      category: 'admin',
      message: `${ctx.user.username} approved ${updated.email}`,
      dealerId: updated.id,
      details: { after: { status: 'approved', accessGranted: true }, emailed: 'approval' },
    });
    return { changed: true as const, dealer: updated };
  });
  if (result.changed) ctx.mail.kick();
  return { ok: true as const, alreadyApproved: !result.changed, status: 'approved' as const };
}

export async function rejectDealer(ctx: AdminContext, id: string, reason: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockDealer(trx, id);
    await trx
      .updateTable('dealers')
      .set({ status: 'rejected', rejectionReason: reason, updatedAt: new Date() })
      .where('id', '=', id)
      .execute();
    if (canSignIn(before.status)) await endSessionsOfUser(trx, id);
    await audit(trx, ctx, {
      eventType: 'dealer.rejected',
      category: 'admin',
      message: `${ctx.user.username} rejected ${before.email}`,
      dealerId: id,
      details: { before: { status: before.status }, after: { status: 'rejected' }, reason },
    });
  });
  return { ok: true as const, status: 'rejected' as const };
}

/** Any of the six statuses, no ordering enforced (SPEC section 4). Leaving approved/active signs the dealer out. */
export async function setDealerStatus(ctx: AdminContext, id: string, status: DealerStatus) {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockDealer(trx, id);
    if (before.status === status) return;
    await trx
      .updateTable('dealers')
      .set({
        status,
        updatedAt: new Date(),
        ...(status === 'approved' && !before.approvalDate
          ? { approvalDate: new Date(), approvedBy: ctx.user.username }
          : {}),
      })
      .where('id', '=', id)
      .execute();
    const signedOut = canSignIn(before.status) && !canSignIn(status) ? await endSessionsOfUser(trx, id) : 0;
    await audit(trx, ctx, {
      eventType: 'dealer.status_changed',
      category: 'admin',
      message: `${ctx.user.username} changed ${before.email} from ${before.status} to ${status}`,
      dealerId: id,
      details: { before: { status: before.status }, after: { status }, sessionsEnded: signedOut },
    });
  });
  return { ok: true as const, status };
}

export async function upgradeDealerTier(ctx: AdminContext, id: string, tier: Tier) {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockDealer(trx, id);
    if (before.tier === tier) return;
    await trx.updateTable('dealers').set({ tier, updatedAt: new Date() }).where('id', '=', id).execute();
    await audit(trx, ctx, {
      eventType: 'dealer.tier_changed',
      category: 'admin',
      message: `${ctx.user.username} changed ${before.email} from ${before.tier} to ${tier}`,
      dealerId: id,
      details: { before: { tier: before.tier }, after: { tier } },
    });
  });
  return { ok: true as const, tier };
}

/**
 * Grant Access (offered for pending dealers without access): lets the dealer in now. It
 * approves a pending dealer and sends the set-password email; a dealer who already has access
 * is left alone, so a double click sends one email.
 */
export async function grantDealerAccess(ctx: AdminContext, id: string) {
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockDealer(trx, id);
    if (before.accessGranted && canSignIn(before.status)) return false;
    if (!canSignIn(before.status) && before.status !== 'pending') {
      throw new AppError('CONFLICT', `This dealer is ${before.status}: change the status before granting access`);
    }
    const approving = before.status === 'pending';
    await trx
      .updateTable('dealers')
      .set({
        accessGranted: true,
        updatedAt: new Date(),
        ...(approving
          ? { status: 'approved', approvalDate: new Date(), approvedBy: ctx.user.username, rejectionReason: null }
          : {}),
      })
      .where('id', '=', id)
      .execute();
    await queueApprovalEmail(trx, before, ctx.config);
    await audit(trx, ctx, {
      eventType: 'dealer.access_granted',
      category: 'admin',
      message: `${ctx.user.username} granted access to ${before.email}`,
      dealerId: id,
      details: {
        before: { status: before.status, accessGranted: before.accessGranted },
        after: { status: approving ? 'approved' : before.status, accessGranted: true },
        emailed: 'approval',
      },
    });
    return true;
  });
  if (changed) ctx.mail.kick();
  return { ok: true as const, alreadyGranted: !changed };
}

/** A fresh set-password link; older unused links stop working. Only for dealers who may sign in. */
export async function sendApprovalEmail(ctx: AdminContext, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const dealer = await lockDealer(trx, id);
    if (!canSignIn(dealer.status)) {
      throw new AppError(
        'CONFLICT',
        `This dealer is ${dealer.status}: approve the dealer before sending the approval email`,
      );
    }
    if (!dealer.accessGranted) {
      await trx
        .updateTable('dealers')
        .set({ accessGranted: true, updatedAt: new Date() })
        .where('id', '=', id)
        .execute();
    }
    await queueApprovalEmail(trx, dealer, ctx.config);
    await audit(trx, ctx, {
      eventType: 'dealer.approval_email_sent',
      category: 'email',
      message: `${ctx.user.username} sent the approval email to ${dealer.email}`,
      dealerId: id,
      details: { emailed: 'approval', ...(dealer.accessGranted ? {} : { after: { accessGranted: true } }) },
    });
  });
  ctx.mail.kick();
  return { ok: true as const };
}

/** Emails a password reset link (offered when access is granted or the dealer is approved/active). */
export async function sendDealerPasswordReset(ctx: AdminContext, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const dealer = await lockDealer(trx, id);
    if (!dealer.accessGranted && !canSignIn(dealer.status)) {
      throw new AppError('CONFLICT', 'This dealer has no access yet: grant access or approve the dealer first');
    }
    await queueResetEmail(trx, dealer, ctx.config);
    await audit(trx, ctx, {
      eventType: 'dealer.password_reset_sent',
      category: 'email',
      message: `${ctx.user.username} sent a password reset link to ${dealer.email}`,
      dealerId: id,
      details: { emailed: 'password_reset' },
    });
  });
  ctx.mail.kick();
  return { ok: true as const };
}

/**
 * Links a referral by hand: referredBy, referral type manual, and the recruiter's affiliate
 * link (if any) counts it; a link that counted the previous referrer gives it back.
 */
export async function linkDealerReferral(ctx: AdminContext, id: string, referredBy: string) {
  if (id === referredBy) {
    throw new AppError('INVALID_INPUT', 'A dealer cannot be linked to themselves', {
      fieldErrors: { referredBy: 'A dealer cannot be linked to themselves' },
    });
  }
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockDealer(trx, id);
    const referrer = await findDealerForAdmin(trx, referredBy);
    if (!referrer) {
      throw new AppError('INVALID_INPUT', 'The referring dealer does not exist', {
        fieldErrors: { referredBy: 'The referring dealer does not exist' },
      });
    }
    if (before.referredBy === referredBy && before.referralType === 'manual') return;
    await trx
      .updateTable('dealers')
      .set({ referredBy, referralType: 'manual', updatedAt: new Date() })
      .where('id', '=', id)
      .execute();
    if (before.referredBy !== referredBy) {
      if (before.referredBy) {
        await trx
          .updateTable('affiliateLinks')
          .set((eb) => ({ totalReferrals: eb('totalReferrals', '-', 1), updatedAt: new Date() }))
          .where('dealerId', '=', before.referredBy)
          .where('totalReferrals', '>', 0)
          .execute();
      }
    }
    const link =
      before.referredBy !== referredBy
        ? await trx
            .updateTable('affiliateLinks')
            .set((eb) => ({ totalReferrals: eb('totalReferrals', '+', 1), updatedAt: new Date() }))
            .where('dealerId', '=', referredBy)
            .returning(['recruiterId', 'totalReferrals'])
            .executeTakeFirst()
        : undefined;
    await audit(trx, ctx, {
      eventType: 'dealer.referral_linked',
      category: 'admin',
      message: `${ctx.user.username} linked ${before.email} as referred by ${referrer.fullName}`,
      dealerId: id,
      recruiterId: link?.recruiterId ?? null,
      details: {
        before: { referredBy: before.referredBy, referralType: before.referralType },
        after: { referredBy, referralType: 'manual' },
        referrerName: referrer.fullName,
      },
    });
  });
  return { ok: true as const };
}
