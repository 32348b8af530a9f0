import { findDealerForAdmin } from '@dn/db/queries/dealers';
import { countLiveStatusLinks, findApplicationByStatusToken, revokeStatusLinks } from '@dn/db/queries/status-links';
import { type ApplicationStage, applicationStage, dayLabel, reviewStartsOn, STATUS_LINK_NOT_FOUND } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/tokens';
import { businessSettings } from '../accounts/business-settings';
import { audit } from '../audit/audit';
import { decisionExpectedBy } from './review-promise';

/** The page a status token opens (web route /application/$token). */
export const statusPageUrl = (publicUrl: string, token: string) => `${publicUrl}/application/${token}`;

/**
 * An applicant's private status link: a 256-bit random token, of which only the SHA-256 is stored
 * (the signup stores it with the application). The token itself goes into the email only.
 */
export function newStatusToken(): { token: string; hash: string } {
  const token = randomToken();
  return { token, hash: sha256(token) };
}

const REVIEW_WITHIN = 'Our team reviews every application within 2-3 business days.';

function nextStep(stage: ApplicationStage, submittedAt: Date): string {
  switch (stage) {
    case 'received':
      return `We have your application. Review starts on ${dayLabel(reviewStartsOn(submittedAt))}. ${REVIEW_WITHIN}`;
    case 'under_review':
      return `${REVIEW_WITHIN} You will hear from us by email.`;
    case 'approved':
      return 'Next: set your password with the link in your approval email, then book your onboarding call; it takes place within 5 business days.';
    case 'rejected':
      return 'If you think something was missed, book a call and we will talk it through.';
  }
}

/**
 * What the status page shows, and nothing more: where the application stands (received, under
 * review, approved, rejected: the rule is applicationStage in @dn/schema, decision 0640), the admin's
 * reason when rejected, what happens next and when, and the applicant's own contact details to
 * prefill the Book a Call form. An unknown or revoked link is a 404.
 */
export async function applicationStatus(ctx: Context, token: string) {
  const app = await findApplicationByStatusToken(ctx.db, sha256(token));
  if (!app) throw new AppError('NOT_FOUND', STATUS_LINK_NOT_FOUND);
  const submittedAt = new Date(app.createdAt);
  const stage = applicationStage({ status: app.status, submittedAt, adminActed: Boolean(app.adminActed) });
  // Issue 38: while it waits, the day (yyyy-mm-dd, business zone) a decision is promised by.
  const waiting = stage === 'received' || stage === 'under_review';
  const expectedBy = waiting ? decisionExpectedBy(submittedAt, (await businessSettings(ctx)).timeZone) : null;
  return {
    stage,
    fullName: app.fullName,
    companyName: app.companyName,
    tier: app.tier,
    submittedAt: submittedAt.toISOString(),
    decidedAt: stage === 'approved' && app.approvalDate ? new Date(app.approvalDate).toISOString() : null,
    rejectionReason: stage === 'rejected' ? app.rejectionReason : null,
    nextStep: nextStep(stage, submittedAt),
    reviewWithin: '2-3 business days',
    decisionExpectedBy: expectedBy,
    onboardingCallWithin: '5 business days',
    booking: { name: app.fullName, email: app.email, phone: app.phoneE164 },
  };
}

/** Revokes an application's status links (its page answers 404 from then on); audited. */
export async function revokeStatusLink(ctx: Context & { user: User }, dealerId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const dealer = await findDealerForAdmin(trx, dealerId);
    if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
    const revoked = await revokeStatusLinks(trx, dealerId, ctx.user.username);
    await audit(trx, ctx, {
      eventType: 'dealer.status_link_revoked',
      category: 'admin',
      message: revoked
        ? `${ctx.user.username} revoked the application status link of ${dealer.email}`
        : `${ctx.user.username} found no live status link for ${dealer.email}`,
      dealerId,
      details: { revoked },
    });
    return { ok: true as const, revoked };
  });
}

export async function statusLinkState(ctx: Context, dealerId: string) {
  return { live: (await countLiveStatusLinks(ctx.db, dealerId)) > 0 };
}
