import { createHash, randomUUID } from 'node:crypto';
import { findActiveLinkByRecruiterId } from '@dn/db/queries/affiliate-links';
import { findDealerByEmailCi, findReferrableDealer, insertApplication } from '@dn/db/queries/dealers';
import { canonicalMailbox, type DealerApplication } from '@dn/schema';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { openReferralRef } from '../../lib/referral-ref';
import { hitBudgets, type KeyedLimit, overBudget, recipientKey, release, spend } from '../accounts/rate-limit';
import { type AuditEntry, auditRow } from '../audit/audit';
import { enqueueMail, outboxRow } from '../mail/outbox';
import { applicationExistsEmail, applicationReceivedEmail } from '../mail/templates';
import { selfReferralSignals } from './self-referral';
import { newStatusToken, statusPageUrl } from './status-link';

export const UNKNOWN_REFERRER = 'Please select how you were referred';

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** One mailbox, however it is spelt (issue 35, decision 0880): a recruiter's `me+1@…` is still them. */
const sameMailbox = (a: string, b: string) => canonicalMailbox(a) === canonicalMailbox(b);

type Attribution =
  | { referredBy: string; referralType: 'automatic'; linkId: string; recruiterId: string; recruiterEmail: string }
  | { referredBy: string; referralType: 'manual'; recruiterEmail: string }
  | { referredBy: null; referralType: null };

/**
 * Stores a dealer application as pending (decision 0101): the referral link wins over the
 * picker, an unknown or own recruiter id is audited and ignored, a named referrer must be an
 * approved dealer. One statement that commits (issue 16: each commit is a wait for the disk): it
 * counts the address's signup budget and the recipient's email budget (decision 0630) and, only
 * within both, stores the dealer row, the link's counter, the audit rows, the status link and the
 * email (insertApplication), where the unique indexes on lower(email) and on the canonical mailbox
 * (migration 0880: `me+1@…` and gmail's dots are one mailbox) settle duplicates, simultaneous or not. An application refused or not stored gives its email hit back; the
 * address's hit stays.
 */
export async function signup(ctx: Context, input: DealerApplication) {
  const addressBudget: KeyedLimit = [`signup:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.signupPerIp];
  // The "application received" email counts against the address's budget (decision 0701).
  const mailBudget: KeyedLimit = [recipientKey(input.email), ctx.limits.mailPerRecipient];
  const { stored, windows } = await store(ctx, input, addressBudget, mailBudget);
  const refused = overBudget(windows, [addressBudget, mailBudget]);
  if (refused) {
    // No email is queued: the hit goes back (a lost give-back only over-counts the window).
    await release(ctx.db, [mailBudget[0]]).catch((err: unknown) =>
      ctx.log.warn({ err }, 'could not give back an email hit'),
    );
    throw refused;
  }
  // The address is taken: the answer is a new application's, and its owner hears of it by email,
  // within the same per-recipient budget (issue 35: a 409 told anyone which emails have an account).
  if (!stored) await tellAddressOwner(ctx, input.email);

  ctx.mail.kick();
  // Its request line is logged; the application itself is in the audit trail (dealer.signed_up).
  ctx.log.debug({ tier: input.tier }, 'dealer application received');
  return {
    ok: true as const,
    status: 'pending' as const,
    message: 'Application received. Watch your inbox: we review applications within 2-3 business days.',
  };
}

/** "Someone applied with your email": to the dealer who has it (the email hit was counted with the signup). */
async function tellAddressOwner(ctx: Context, email: string) {
  const owner = await findDealerByEmailCi(ctx.db, email);
  if (!owner) return; // taken and gone since: nothing to tell
  await enqueueMail(ctx.db, applicationExistsEmail(owner, { publicUrl: ctx.config.publicUrl }));
}

/**
 * The referral it came through (read first), then the application in one statement that spends
 * both budgets. A named referrer that is not one is refused once the address's hit is counted.
 */
async function store(ctx: Context, input: DealerApplication, addressBudget: KeyedLimit, mailBudget: KeyedLimit) {
  const { db } = ctx;
  const notes: AuditEntry[] = [];
  let attribution: Attribution = { referredBy: null, referralType: null };
  if (input.recruiterId) {
    const link = await findActiveLinkByRecruiterId(db, input.recruiterId);
    if (!link) {
      notes.push({
        eventType: 'referral.unknown_recruiter',
        category: 'affiliate',
        message: `Signup named recruiter id ${input.recruiterId}, which matches no active affiliate link of a dealer in good standing`,
        recruiterId: input.recruiterId,
        success: false,
        details: { email: input.email },
      });
    } else if (sameMailbox(link.dealerEmail, input.email)) {
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
        recruiterEmail: link.dealerEmail,
      };
    }
  }
  if (!attribution.referredBy && input.referredBy) {
    // The picker's opaque reference (decision 0885), never a dealer id.
    const referrerId = openReferralRef(ctx.config.sessionSecret, input.referredBy);
    const referrer = referrerId ? await findReferrableDealer(db, referrerId) : undefined;
    if (!referrer) {
      await spend(db, addressBudget);
      throw new AppError('INVALID_INPUT', UNKNOWN_REFERRER, { fieldErrors: { referredBy: UNKNOWN_REFERRER } });
    }
    if (!sameMailbox(referrer.email, input.email)) {
      attribution = { referredBy: referrer.id, referralType: 'manual', recruiterEmail: referrer.email };
    }
  }

  // Anything else the signup shares with its recruiter: attributed, but flagged (decision 0895).
  const flag = attribution.referredBy
    ? await selfReferralSignals(ctx, { id: attribution.referredBy, email: attribution.recruiterEmail }, input)
    : null;
  if (flag) {
    notes.push({
      eventType: 'referral.flagged',
      category: 'affiliate',
      message: `Referral flagged for an owner: ${flag.reason}`,
      recruiterId: attribution.referralType === 'automatic' ? attribution.recruiterId : null,
      success: false,
      details: { recruiterDealerId: attribution.referredBy, signals: flag.signals },
    });
  }

  const id = randomUUID();
  const row = { id, fullName: input.fullName, email: input.email, tier: input.tier };
  const status = newStatusToken();
  const signedUp: AuditEntry = {
    eventType: 'dealer.signed_up',
    category: 'signup',
    message: `${row.tier} application from ${row.email}`,
    recruiterId: attribution.referralType === 'automatic' ? attribution.recruiterId : (input.recruiterId ?? null),
    details: { tier: row.tier, referredBy: attribution.referredBy, referralType: attribution.referralType },
  };
  return insertApplication(db, {
    budgets: hitBudgets([addressBudget, mailBudget]),
    dealer: {
      id,
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
    },
    audits: [...notes, signedUp].map((n) => auditRow(ctx, { ...n, dealerId: n.dealerId ?? id })),
    statusLinkHash: status.hash,
    mail: outboxRow(
      applicationReceivedEmail(row, {
        publicUrl: ctx.config.publicUrl,
        statusUrl: statusPageUrl(ctx.config.publicUrl, status.token),
      }),
    ),
    linkId: attribution.referralType === 'automatic' ? attribution.linkId : null,
    ...(flag && attribution.referredBy ? { flag: { recruiterDealerId: attribution.referredBy, ...flag } } : {}),
  });
}
