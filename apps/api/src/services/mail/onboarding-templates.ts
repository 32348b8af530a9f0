import type { EmailAttachment } from '@dn/db';
import { formatWallTime } from '@dn/schema';
import type { MailMessage } from './outbox';
import { render } from './render';
import { type EmailDealer, longDate } from './templates';

/** The onboarding checklist's emails (issue 38): the words here, the when in services/onboarding. */

const portal = (publicUrl: string, path: string) => `${publicUrl}${path}`;

/** The signed agreement, its PDF attached. */
export function agreementSignedEmail(
  dealer: EmailDealer,
  opts: { publicUrl: string; tier: string; version: number; pdf: EmailAttachment },
): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      `Thank you for signing the ${opts.tier} Dealer Agreement (version ${opts.version}). A PDF copy of what you signed is attached; you can download it again from your dashboard at any time.`,
      { url: portal(opts.publicUrl, '/dashboard#onboarding-agreement'), label: 'Continue your onboarding' },
    ],
    opts.publicUrl,
  );
  return {
    kind: 'agreement_signed',
    to: dealer.email,
    subject: `Your signed ${opts.tier} Dealer Agreement`,
    text,
    html,
    dealerId: dealer.id,
    attachments: [opts.pdf],
  };
}

/** A tier's agreement changed: the same words for every dealer of the tier (one statement queues them). */
export function agreementUpdatedEmail(opts: { publicUrl: string; tier: string; version: number }) {
  const { text, html } = render(
    [
      'Hello,',
      `We have updated the ${opts.tier} Dealer Agreement (version ${opts.version}). Please read and sign the new version from your dashboard: new jobs are offered once it is signed.`,
      { url: portal(opts.publicUrl, '/dashboard#onboarding-agreement'), label: 'Read and sign the agreement' },
    ],
    opts.publicUrl,
  );
  return { kind: 'agreement_updated', subject: `Please sign the updated ${opts.tier} Dealer Agreement`, text, html };
}

const when = (call: { date: string; time: string; timeZone: string }) =>
  formatWallTime(call.date, call.time, call.timeZone);

/** The booking's confirmation, or the 24-hour reminder: both carry a one-time reschedule link. */
export function onboardingCallEmail(
  dealer: EmailDealer,
  call: { date: string; time: string; timeZone: string },
  opts: { publicUrl: string; token: string; reminder: boolean },
): MailMessage {
  // In the fragment: the token never reaches a server log; the page posts it (web: RescheduleCall).
  const link = `${opts.publicUrl}/dashboard#reschedule=${encodeURIComponent(opts.token)}`;
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      opts.reminder
        ? `A reminder: your onboarding call is tomorrow, ${when(call)}.`
        : `Your onboarding call is booked for ${when(call)}.`,
      'A member of our team will call you at the phone number on your account and walk you through ordering, installation and your dashboard.',
      'Cannot make it? Choose another time with this link (no sign-in needed; it works once):',
      { url: link, label: 'Reschedule the call' },
    ],
    opts.publicUrl,
  );
  return {
    kind: opts.reminder ? 'onboarding_call_reminder' : 'onboarding_call_booked',
    to: dealer.email,
    subject: opts.reminder ? `Reminder: your onboarding call is tomorrow` : `Your onboarding call: ${when(call)}`,
    text,
    html,
    dealerId: dealer.id,
    // The reminder is one a dealer can turn off (List-Unsubscribe, decision 0983); the booking's
    // confirmation is transactional. Expiry notices stay on: they decide whether jobs are offered.
    ...(opts.reminder ? { category: 'reminders' as const } : {}),
  };
}

const DOCUMENT_NAMES = { insurance: 'insurance certificate', license: 'contractor licence' } as const;

/** An insurance certificate or licence expires in 30 or 7 days. */
export function complianceExpiryEmail(
  dealer: EmailDealer,
  r: { document: 'insurance' | 'license'; expiresOn: string; daysBefore: number },
  opts: { publicUrl: string },
): MailMessage {
  const name = DOCUMENT_NAMES[r.document];
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      `Your ${name} on file expires on ${longDate(r.expiresOn)} (in ${r.daysBefore} days or less). Once it expires, new jobs are no longer offered to you until a current one is on file.`,
      { url: portal(opts.publicUrl, '/dashboard#onboarding-insurance'), label: `Update your ${name}` },
    ],
    opts.publicUrl,
  );
  return {
    kind: `${r.document}_expiry_${r.daysBefore}`,
    to: dealer.email,
    subject: `Your ${name} expires on ${longDate(r.expiresOn)}`,
    text,
    html,
    dealerId: dealer.id,
  };
}

const KIND_NAMES = { insurance: 'insurance certificate', licence: 'contractor licence' } as const;

/** An owner or reviewer rejected an uploaded insurance certificate or licence (issue 45), with their reason. */
export function complianceRejectedEmail(
  dealer: EmailDealer,
  d: { kind: 'insurance' | 'licence'; expiresOn: string; reason: string },
  opts: { publicUrl: string },
): MailMessage {
  const name = KIND_NAMES[d.kind];
  const { text, html } = render([
    `Hello ${dealer.fullName},`,
    `We could not accept the ${name} you uploaded (expiring ${longDate(d.expiresOn)}). Our team's reason:`,
    d.reason,
    'Jobs are offered to you once a current certificate is verified. Please upload a corrected one from your dashboard.',
    { url: portal(opts.publicUrl, '/dashboard#onboarding-insurance'), label: `Upload your ${name}` },
  ]);
  return {
    kind: `${d.kind}_rejected`,
    to: dealer.email,
    subject: `Your ${name} was not accepted`,
    text,
    html,
    dealerId: dealer.id,
  };
}
