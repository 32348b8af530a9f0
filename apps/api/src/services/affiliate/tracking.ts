import { dealerIdByEmail } from '@dn/db/queries/dealers';
import { recentTrackingEvents, recruiterFunnel } from '@dn/db/queries/insights';
import { isValidRecruiterId, type trackEvent, type trackSignup } from '@dn/schema';
import type { z } from 'zod';
import type { Context } from '../../context';
import { ipKey } from '../../lib/ip-key';
import { hit } from '../accounts/rate-limit';
import { audit } from '../audit/audit';

/**
 * Referral tracking from the browser (fire and forget): one audit row per call. The input is
 * bounded by the schema; a recruiter id that is not well formed is kept only inside details. What
 * the caller sends as details is theirs: kept under `details.client`, never read as who did it
 * (the actor, IP and user agent are the request's; issue 35, finding 9).
 */
export async function trackReferralEvent(ctx: Context, input: z.output<typeof trackEvent>) {
  await hit(ctx.db, `track:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.trackPerIp);
  const valid = isValidRecruiterId(input.recruiterId);
  await audit(ctx.db, ctx, {
    eventType: `affiliate.${input.eventType}`,
    category: 'affiliate',
    message: `Referral ${input.eventType === 'cookie_set' ? 'cookie set' : 'link visited'} for ${valid ? input.recruiterId : 'an invalid recruiter id'}`,
    recruiterId: valid ? input.recruiterId : null,
    success: valid,
    details: { client: input.details ?? {}, ...(valid ? {} : { rawRecruiterId: input.recruiterId }) },
  });
  return { ok: true as const };
}

export async function trackReferralSignup(ctx: Context, input: z.output<typeof trackSignup>) {
  await hit(ctx.db, `track:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.trackPerIp);
  const valid = isValidRecruiterId(input.recruiterId);
  await audit(ctx.db, ctx, {
    eventType: 'affiliate.signup_tracked',
    category: 'affiliate',
    message: `Signup of ${input.userData.email} tracked for ${valid ? input.recruiterId : 'an invalid recruiter id'}`,
    recruiterId: valid ? input.recruiterId : null,
    dealerId: await dealerIdByEmail(ctx.db, input.userData.email),
    clientHash: input.clientHash ?? null,
    success: valid,
    details: { email: input.userData.email, ...(valid ? {} : { rawRecruiterId: input.recruiterId }) },
  });
  return { ok: true as const };
}

/** The admin's referral funnel of the busiest recruiters and the latest tracking events. */
export async function affiliateTracking(ctx: Context) {
  const [recruiters, events] = await Promise.all([recruiterFunnel(ctx.db, 50), recentTrackingEvents(ctx.db, 50)]);
  return { recruiters, events };
}
