import { createHash } from 'node:crypto';
import { findActiveLinkByRecruiterId, incrementLinkReferrals } from '@dn/db/queries/affiliate-links';
import { dealerIdByEmail, findReferrableDealer, insertDealer } from '@dn/db/queries/dealers';
import type { DealerApplication } from '@dn/schema';
import type { Context } from '../../context';
import { AppError, isUniqueViolation } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { hit, spendRecipient } from '../accounts/rate-limit';
import { type AuditEntry, audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { applicationReceivedEmail } from '../mail/templates';
import { createStatusLink, statusPageUrl } from './status-link';

export const DUPLICATE_APPLICATION = 'An application with this email already exists';
export const UNKNOWN_REFERRER = 'Please select how you were referred';

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

type Attribution =
  | { referredBy: string; referralType: 'automatic'; linkId: string; recruiterId: string }
  | { referredBy: string; referralType: 'manual' }
  | { referredBy: null; referralType: null };

/**
 * Stores a dealer application as pending (decision 0101): the referral link wins over the
 * picker, an unknown or own recruiter id is audited and ignored, a named referrer must be an
 * approved dealer. The dealer row, the link's counter, the audit rows and the email are one
 * transaction; the unique index on lower(email) settles simultaneous duplicates.
 */
export async function signup(ctx: Context, input: DealerApplication) {
  await hit(ctx.db, `signup:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.signupPerIp);

  const dealer = await ctx.db
    .transaction()
    .execute(async (trx) => {
      if (await dealerIdByEmail(trx, input.email)) throw new AppError('CONFLICT', DUPLICATE_APPLICATION);
      // The "application received" email counts against the address's budget (decision 0701).
      const recipient = await spendRecipient(trx, ctx.limits.mailPerRecipient, input.email);
      if (!recipient.allowed) throw recipient.error;

      const notes: AuditEntry[] = [];
      let attribution: Attribution = { referredBy: null, referralType: null };
      if (input.recruiterId) {
        const link = await findActiveLinkByRecruiterId(trx, input.recruiterId);
        if (!link) {
          notes.push({
            eventType: 'referral.unknown_recruiter',
            category: 'affiliate',
            message: `Signup named recruiter id ${input.recruiterId}, which matches no active affiliate link`,
            recruiterId: input.recruiterId,
            success: false,
            details: { email: input.email },
          });
        } else if (link.dealerEmail.toLowerCase() === input.email) {
          notes.push({
            eventType: 'referral.self_refused',
            category: 'affiliate',
            message: 'A recruiter cannot refer their own email',
            recruiterId: link.recruiterId,
            dealerId: link.dealerId,
            success: false,
          });
        } else {
          attribution = {
            referredBy: link.dealerId,
            referralType: 'automatic',
            linkId: link.id,
            recruiterId: link.recruiterId,
          };
        }
      }
      if (!attribution.referredBy && input.referredBy) {
        const referrer = await findReferrableDealer(trx, input.referredBy);
        if (!referrer) {
          throw new AppError('INVALID_INPUT', UNKNOWN_REFERRER, { fieldErrors: { referredBy: UNKNOWN_REFERRER } });
        }
        if (referrer.email.toLowerCase() !== input.email) {
          attribution = { referredBy: referrer.id, referralType: 'manual' };
        }
      }

      const row = await insertDealer(trx, {
        tier: input.tier,
        fullName: input.fullName,
        companyName: input.companyName ?? null,
        email: input.email,
        phoneE164: input.phoneE164,
        addressJson: JSON.stringify(input.addressJson),
        entityType: input.entityType ?? null,
        licensedInstallers: input.licensedInstallers,
        crewCount: input.crewCount,
        insuranceCertUrl: input.insuranceCertUrl ?? null,
        maintainInventory: input.maintainInventory,
        salesReps: input.salesReps,
        monthlyVolume: input.monthlyVolume,
        crmName: input.crmName ?? null,
        permittingCapable: input.permittingCapable,
        homePerformance: input.homePerformance,
        productVerticals: input.productVerticals,
        onboardingCallOk: input.onboardingCallOk,
        dealerAgreementUrl: input.dealerAgreementUrl ?? null,
        logoUrl: input.logoUrl ?? null,
        referredBy: attribution.referredBy,
        referralType: attribution.referralType,
        status: 'pending',
        uaHash: ctx.meta.userAgent ? sha256(ctx.meta.userAgent) : null,
        // The validated application only: it carries no password or token by construction.
        originalPayload: JSON.stringify(input),
        updatedAt: new Date(),
      });

      if (attribution.referralType === 'automatic') await incrementLinkReferrals(trx, attribution.linkId);
      for (const n of notes) await audit(trx, ctx, { ...n, dealerId: n.dealerId ?? row.id });
      await audit(trx, ctx, {
        eventType: 'dealer.signed_up',
        category: 'signup',
        message: `${row.tier} application from ${row.email}`,
        dealerId: row.id,
        recruiterId: attribution.referralType === 'automatic' ? attribution.recruiterId : (input.recruiterId ?? null),
        details: { tier: row.tier, referredBy: attribution.referredBy, referralType: attribution.referralType },
      });
      const statusToken = await createStatusLink(trx, row.id);
      await enqueueMail(
        trx,
        applicationReceivedEmail(row, {
          publicUrl: ctx.config.publicUrl,
          statusUrl: statusPageUrl(ctx.config.publicUrl, statusToken),
        }),
      );
      return { ...row, referralType: attribution.referralType };
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', DUPLICATE_APPLICATION);
      throw err;
    });

  ctx.mail.kick();
  ctx.log.info({ dealerId: dealer.id, tier: dealer.tier }, 'dealer application received');
  return {
    ok: true as const,
    status: 'pending' as const,
    message: 'Application received. Watch your inbox: we review applications within 2-3 business days.',
  };
}
