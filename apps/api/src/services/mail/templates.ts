import {
  CALL_DURATION_MINUTES,
  CALL_TIME_ZONE,
  CALL_TIME_ZONE_LABEL,
  CALL_WINDOWS,
  type CallTime,
  displayMoney,
  plural,
  type Tier,
  TOKEN_TTL_HOURS,
  withArticle,
} from '@dn/schema';
import { buildIcs } from '../../lib/ics';
import type { MailMessage } from './outbox';
import { render } from './render';

/**
 * Every email's words, rendered to text and HTML by render.ts. A template only builds the
 * message; the service that sends it decides when, and enqueues it in its transaction. Links
 * are built from PUBLIC_URL only: a request's Host header is the attacker's to choose, and a
 * reset link pointing elsewhere would leak the token.
 */

/** 2026-12-01 -> "Tuesday, December 1, 2026" (the date is a calendar day, so it is read in UTC). */
export function longDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(new Date(`${isoDate}T00:00:00Z`));
}

export function callConfirmationEmail(
  call: { id: string; name: string; email: string; phone: string; preferredDate: string; preferredTime: CallTime },
  opts: { publicUrl: string; organizerEmail?: string },
): MailMessage {
  const window = CALL_WINDOWS[call.preferredTime];
  const when = `${longDate(call.preferredDate)}, ${window.label.toLowerCase()} (${window.range} ${CALL_TIME_ZONE_LABEL})`;
  const { text, html } = render(
    [
      `Hi ${call.name},`,
      `Thanks for booking a free ${CALL_DURATION_MINUTES}-minute call about the dealer program.`,
      {
        lines: [
          `Date: ${longDate(call.preferredDate)}`,
          `Time window: ${window.label}, ${window.range}`,
          `Time zone: ${CALL_TIME_ZONE_LABEL} (${CALL_TIME_ZONE})`,
          `We will call you at: ${call.phone}`,
        ],
      },
      'A member of our team will call you during that window. The attached calendar file holds the window in your calendar.',
      `Learn more before the call: ${opts.publicUrl}/presentation`,
    ],
    opts.publicUrl,
  );
  const ics = buildIcs({
    uid: call.id,
    date: call.preferredDate,
    startHour: window.startHour,
    endHour: window.endHour,
    timeZone: CALL_TIME_ZONE,
    summary: `Dealer program call (${CALL_DURATION_MINUTES} min, ${window.label.toLowerCase()} window)`,
    description: `We will call ${call.phone} during the ${window.label.toLowerCase()} window (${window.range} ${CALL_TIME_ZONE_LABEL}).`,
    ...(opts.organizerEmail ? { organizerEmail: opts.organizerEmail } : {}),
    attendee: { name: call.name, email: call.email },
  });
  return {
    kind: 'call_confirmation',
    to: call.email,
    subject: `Your call is booked: ${when}`,
    text,
    html,
    attachments: [{ filename: 'dealer-program-call.ics', contentType: 'text/calendar; charset=utf-8', content: ics }],
  };
}

export function applicationReceivedEmail(
  dealer: { id: string; fullName: string; email: string; tier: Tier },
  opts: { publicUrl: string; statusUrl?: string },
): MailMessage {
  const { text, html } = render(
    [
      `Hi ${dealer.fullName},`,
      `We received your application to become ${withArticle(`${dealer.tier} dealer`)}. Thank you!`,
      ...(opts.statusUrl
        ? [
            'See where your application stands at any time (a private link, no sign-in needed):',
            { url: opts.statusUrl, label: 'Application status' },
          ]
        : []),
      {
        intro: 'What happens next:',
        items: [
          'Our team reviews your application within 2-3 business days.',
          'Once approved, you book your onboarding call from your dashboard, within 5 business days.',
          'You will receive an email with a link to set your password and open your dealer dashboard.',
        ],
      },
      `Meanwhile, see the program overview: ${opts.publicUrl}/presentation`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'application_received',
    to: dealer.email,
    subject: 'Application received',
    text,
    html,
    dealerId: dealer.id,
  };
}

/**
 * Someone applied with an email that already has an application (issue 35): the signup answers as
 * for a new one, and the owner of the address is told here instead, with the ways back in.
 */
export function applicationExistsEmail(
  dealer: { id: string; fullName: string; email: string },
  opts: { publicUrl: string },
): MailMessage {
  const { text, html } = render(
    [
      `Hi ${dealer.fullName},`,
      'Someone (perhaps you) just applied to the Dealer Network with this email address. It already has an application with us, so nothing new was created.',
      'If you have set your password, sign in here; if you forgot it, the sign-in page can send you a reset link:',
      { url: `${opts.publicUrl}/login`, label: 'Sign in' },
      'If it was not you, you can ignore this email: your account is unchanged.',
    ],
    opts.publicUrl,
  );
  return {
    kind: 'application_exists',
    to: dealer.email,
    subject: 'You already have an application with us',
    text,
    html,
    dealerId: dealer.id,
  };
}

/** Whom an account email goes to. */
export interface EmailDealer {
  id: string;
  email: string;
  fullName: string;
  tier?: string | null;
}

const linkFor = (publicUrl: string, token: string) => `${publicUrl}/login?token=${encodeURIComponent(token)}`;
const loginUrl = (publicUrl: string) => `${publicUrl}/login`;
const hours = (h: number) => plural(h, 'hour');

/** The approval email (or, with `resend`, a fresh set-up link): set a password (72 hours), what comes next, how to get another link. */
export function approvalEmail(
  dealer: EmailDealer,
  opts: { publicUrl: string; token: string; resend?: boolean | undefined },
): MailMessage {
  const tier = dealer.tier ? `${dealer.tier} dealer` : 'dealer';
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      opts.resend
        ? `Here is a new link to set the password of your ${tier} account. Any earlier link no longer works.`
        : `Good news: your application has been approved and you are now ${withArticle(tier)} in our network. Set your password with the link below to open your dealer dashboard.`,
      { url: linkFor(opts.publicUrl, opts.token), label: 'Set up your password' },
      `This link works once and expires in ${hours(TOKEN_TTL_HOURS.setup)}.`,
      'What happens next: once your password is set you are signed in to your dashboard, where you will find your dealer details, your first order form, your affiliate link to refer other dealers, and our resources. Book your onboarding call there too, at a time that suits you, within 5 business days.',
      `If the link has expired or was already used, go to ${loginUrl(opts.publicUrl)}, choose "Forgot password?" and enter ${dealer.email}: we will email you a fresh link.`,
      'If you did not apply to become a dealer, you can ignore this email.',
    ],
    opts.publicUrl,
  );
  return {
    kind: opts.resend ? 'setup_link' : 'approval',
    to: dealer.email,
    subject: opts.resend
      ? 'Your new link to set up your dealer password'
      : 'Your dealer application is approved: set up your password',
    text,
    html,
    dealerId: dealer.id,
  };
}

/** A password reset link (1 hour). */
export function resetEmail(dealer: EmailDealer, opts: { publicUrl: string; token: string }): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      'We received a request to reset the password of your dealer account. Choose a new password with the link below.',
      { url: linkFor(opts.publicUrl, opts.token), label: 'Reset your password' },
      `This link works once and expires in ${hours(TOKEN_TTL_HOURS.reset)}. If it has expired, go to ${loginUrl(opts.publicUrl)}, choose "Forgot password?" and ask for another.`,
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
    ],
    opts.publicUrl,
  );
  return {
    kind: 'password_reset',
    to: dealer.email,
    subject: 'Reset your dealer account password',
    text,
    html,
    dealerId: dealer.id,
  };
}

/** "12:34 UTC": when a sign-in lock ends, told in the lock notice. */
const clock = (at: Date) => `${at.toISOString().slice(11, 16)} UTC`;

/**
 * The one notice a dealer gets when failed sign-ins lock their account (decision 0700): when the
 * lock ends, and a reset link (1 hour) that lifts it at once, since whoever guessed does not hold
 * the mailbox.
 */
export function dealerLockedEmail(
  dealer: EmailDealer,
  opts: { publicUrl: string; token: string; until: Date },
): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      `Sign-ins to your dealer account were paused until ${clock(opts.until)} after several wrong passwords were tried for it. Your password has not been changed and nobody signed in.`,
      'To sign in now, set a new password with the link below: a new password lifts the pause at once.',
      { url: linkFor(opts.publicUrl, opts.token), label: 'Set a new password' },
      `This link works once and expires in ${hours(TOKEN_TTL_HOURS.reset)}. If it has expired, go to ${loginUrl(opts.publicUrl)}, choose "Forgot password?" and ask for another.`,
      'If the wrong passwords were yours, you can also wait and sign in after the pause. A browser you signed in from before is not paused.',
    ],
    opts.publicUrl,
  );
  return {
    kind: 'account_locked',
    to: dealer.email,
    subject: 'Sign-ins to your dealer account were paused',
    text,
    html,
    dealerId: dealer.id,
  };
}

/**
 * The one notice an admin gets when failed sign-ins lock their username (decision 0700). No link:
 * an admin's way back is a browser they signed in from before (it keeps its own budget), or an
 * owner, then their own Change password.
 */
export function adminLockedEmail(
  admin: { username: string; email: string },
  opts: { publicUrl: string; until: Date },
): MailMessage {
  const { text, html } = render(
    [
      'Hello,',
      `Sign-ins to the admin account "${admin.username}" from new browsers were paused until ${clock(opts.until)} after several wrong passwords were tried for it. The password has not been changed and nobody signed in.`,
      `A browser you have signed in from before is not paused: sign in there (${opts.publicUrl}/admin/login). If the wrong passwords were not yours, change your password under Your Account > Change your password once you are in.`,
      'If you have no such browser, wait until the pause ends, or ask an owner of the admin console to help (an owner can remove the account and invite you again).',
    ],
    opts.publicUrl,
  );
  return {
    kind: 'account_locked',
    to: admin.email,
    subject: 'Sign-ins to your admin account were paused',
    text,
    html,
  };
}

/** A notice after the password changed, so an owner who did not do it finds out. */
export function passwordChangedEmail(dealer: EmailDealer, opts: { publicUrl: string }): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      'The password of your dealer account was just set. Any other signed-in sessions of your account have been signed out.',
      `If this was not you, go to ${loginUrl(opts.publicUrl)}, choose "Forgot password?" to set a new password, and contact support.`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'password_changed',
    to: dealer.email,
    subject: 'Your dealer account password was changed',
    text,
    html,
    dealerId: dealer.id,
  };
}

export function commissionEarnedEmail(
  recruiter: { id: string; fullName: string; email: string },
  c: { amount: string; referredName: string; orderedAt: Date },
  opts: { publicUrl: string },
): MailMessage {
  const day = c.orderedAt.toISOString().slice(0, 10);
  const { text, html } = render(
    [
      `Hi ${recruiter.fullName},`,
      `You earned a commission of ${displayMoney(c.amount)}: ${c.referredName}, a dealer you referred, placed an order on ${longDate(day)}.`,
      'The commission is pending during the refund window; once approved it is paid in the next payout.',
      `See your earnings: ${opts.publicUrl}/dashboard`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'commission_earned',
    to: recruiter.email,
    subject: `You earned a ${displayMoney(c.amount)} commission`,
    text,
    html,
    dealerId: recruiter.id,
  };
}

export function payoutSentEmail(
  recruiter: { id: string; fullName: string; email: string },
  p: { amount: string; commissionCount: number; reference: string },
  opts: { publicUrl: string },
): MailMessage {
  const { text, html } = render(
    [
      `Hi ${recruiter.fullName},`,
      {
        lines: [
          `Your payout of ${displayMoney(p.amount)} for ${plural(p.commissionCount, 'commission')} was sent.`,
          `Payment reference: ${p.reference}`,
        ],
      },
      `See your earnings: ${opts.publicUrl}/dashboard`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'payout_sent',
    to: recruiter.email,
    subject: `Your payout of ${displayMoney(p.amount)} was sent`,
    text,
    html,
    dealerId: recruiter.id,
  };
}

// Decision emails (issue 14): one per decision that changed something, queued by the decision
// in services/review and held for its undo window.

/** What a tier means for the dealer (SPEC sections 9 and 10): first-order form and inventory. */
export const TIER_TERMS: Record<Tier, { form: string; inventory: string }> = {
  Affiliate: {
    form: 'The first-order form is optional for your tier.',
    inventory: 'No initial inventory is required.',
  },
  Authorized: {
    form: 'You must complete the first-order form before your first order.',
    inventory: 'Initial inventory: 5,000 dollars, prepaid.',
  },
  Preferred: {
    form: 'You must complete the first-order form before your first order.',
    inventory: 'Initial inventory: 25,000 dollars, with 50% paid upfront.',
  },
};

/**
 * How a dealer reaches the team about a decision: a reply when REPLY_TO is set (the message then
 * leaves with that Reply-To, outbox.ts REPLY_KINDS), else a call booked on the site, since MAIL_FROM
 * is a no-reply address (issue 36).
 */
const reachUs = (opts: { publicUrl: string; replyTo?: string | undefined }) =>
  opts.replyTo
    ? 'reply to this email'
    : `book a call with our team at ${opts.publicUrl}/ (replies to this address are not read)`;

export function rejectionEmail(
  dealer: EmailDealer,
  opts: { reason: string; publicUrl: string; replyTo?: string | undefined },
): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      'Thank you for applying to our dealer network. After reviewing your application we are unable to approve it at this time.',
      { lines: ['Reason given by our team:', opts.reason] },
      `If your situation changes, or you believe this was a mistake, ${reachUs(opts)} and we will take another look.`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'rejection',
    to: dealer.email,
    subject: 'Your dealer application was not approved',
    text,
    html,
    dealerId: dealer.id,
  };
}

export function suspensionEmail(
  dealer: EmailDealer,
  opts: { publicUrl: string; replyTo?: string | undefined },
): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      'Your dealer account has been suspended. You are signed out and cannot sign in to your dashboard while it is suspended.',
      `If you think this is a mistake, ${reachUs(opts)}. More about the program: ${opts.publicUrl}/presentation`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'suspension',
    to: dealer.email,
    subject: 'Your dealer account has been suspended',
    text,
    html,
    dealerId: dealer.id,
  };
}

export function reactivationEmail(dealer: EmailDealer, opts: { publicUrl: string }): MailMessage {
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      'Good news: your dealer account is active again. You can sign in to your dashboard with your usual password.',
      { url: loginUrl(opts.publicUrl), label: 'Sign in' },
      `If you no longer know your password, choose "Forgot password?" on that page and enter ${dealer.email}.`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'reactivation',
    to: dealer.email,
    subject: 'Your dealer account is active again',
    text,
    html,
    dealerId: dealer.id,
  };
}

export function tierChangeEmail(dealer: EmailDealer, opts: { from: Tier; to: Tier; publicUrl: string }): MailMessage {
  const terms = TIER_TERMS[opts.to];
  const { text, html } = render(
    [
      `Hello ${dealer.fullName},`,
      `Your dealer tier has changed from ${opts.from} to ${opts.to}.`,
      {
        intro: `What this means for you as ${withArticle(`${opts.to} dealer`)}:`,
        items: [terms.form, terms.inventory],
      },
      `Your dashboard shows your tier and your first-order form: ${opts.publicUrl}/dashboard`,
    ],
    opts.publicUrl,
  );
  return {
    kind: 'tier_change',
    to: dealer.email,
    subject: `Your dealer tier is now ${opts.to}`,
    text,
    html,
    dealerId: dealer.id,
  };
}

/** An owner's invitation to join the admin team (issue 14): a one-time link, 72 hours. */
export function adminInviteEmail(
  to: string,
  opts: { publicUrl: string; token: string; role: string; invitedBy: string },
): MailMessage {
  const { text, html } = render(
    [
      'Hello,',
      `${opts.invitedBy} invited you to the dealer network's admin console as ${withArticle(opts.role)}. Choose your password with the link below; your username is this email address.`,
      {
        url: `${opts.publicUrl}/admin/accept-invite?token=${encodeURIComponent(opts.token)}`,
        label: 'Accept the invitation',
      },
      `This link works once and expires in ${hours(TOKEN_TTL_HOURS.admin_invite)}. If it has expired, ask an owner for a new invitation.`,
    ],
    opts.publicUrl,
  );
  return { kind: 'admin_invite', to, subject: 'You are invited to the dealer network admin console', text, html };
}

// ── Issue 38: the free call's reminder and the reviewers' daily digest ──────────────────────────

/** The free call's reminder, 24 hours before its window, with a one-time link to reschedule or cancel. */
export function callReminderEmail(
  call: { name: string; email: string; phone: string; preferredDate: string; preferredTime: CallTime },
  opts: { manageUrl: string },
): MailMessage {
  const window = CALL_WINDOWS[call.preferredTime];
  const when = `${longDate(call.preferredDate)}, ${window.label.toLowerCase()} (${window.range} ${CALL_TIME_ZONE_LABEL})`;
  const { text, html } = render([
    `Hi ${call.name},`,
    `A reminder: we will call you at ${call.phone} on ${when}.`,
    'Cannot make it? Pick another time or cancel with this link (no sign-in needed; it works once):',
    { url: opts.manageUrl, label: 'Reschedule or cancel' },
  ]);
  return {
    kind: 'call_reminder',
    to: call.email,
    subject: `Reminder: your call ${when}`,
    text,
    html,
    category: 'reminders',
  };
}

/** One section of the reviewers' digest: a heading and its lines (none: the section is left out). */
export interface DigestSectionText {
  title: string;
  lines: string[];
}

/** The reviewers' and owners' morning digest: what waits for review and what is overdue. */
export function reviewDigestEmail(
  to: string,
  d: { date: string; pending: number; overdue: number; sections: DigestSectionText[]; publicUrl: string },
): MailMessage {
  const { text, html } = render(
    [
      `Good morning. ${plural(d.pending, 'application')} ${d.pending === 1 ? 'waits' : 'wait'} for review; ${d.overdue} ${d.overdue === 1 ? 'is' : 'are'} overdue (more than 3 business days old).`,
      ...d.sections.filter((s) => s.lines.length > 0).map((s) => ({ intro: s.title, items: s.lines })),
      { url: `${d.publicUrl}/admin/applications`, label: 'Open the applications' },
    ],
    d.publicUrl,
  );
  return {
    kind: 'review_digest',
    to,
    subject: `Daily digest for ${longDate(d.date)}: ${d.overdue} overdue`,
    text,
    html,
    category: 'digest',
  };
}

// Paying dealers (issue 39).

/** A recruiter held from a payout batch because their payout details or W-9 are missing: sent once. */
export function payoutDetailsNeededEmail(
  recruiter: { id: string; fullName: string; email: string },
  p: { amount: string; reason: string },
  opts: { publicUrl: string },
): MailMessage {
  const { text, html } = render(
    [
      `Hi ${recruiter.fullName},`,
      `You have ${displayMoney(p.amount)} in approved commissions ready to pay, but we cannot pay you yet: ${p.reason}.`,
      'Add your payout details and sign your W-9 on your dashboard (it takes two minutes):',
      { url: `${opts.publicUrl}/dashboard?tab=payouts`, label: 'Add your payout details' },
    ],
    opts.publicUrl,
  );
  return {
    kind: 'payout_details_needed',
    to: recruiter.email,
    subject: 'Add your payout details so we can pay your commissions',
    text,
    html,
    dealerId: recruiter.id,
  };
}

/** A payment the bank returned: the amount is payable again once the details are fixed. */
export function paymentReturnedEmail(
  recruiter: { id: string; fullName: string; email: string },
  p: { amount: string; returnCode: string },
  opts: { publicUrl: string },
): MailMessage {
  const { text, html } = render(
    [
      `Hi ${recruiter.fullName},`,
      `Your bank returned our payment of ${displayMoney(p.amount)} (return code ${p.returnCode}). The amount is still yours and will be paid in the next batch.`,
      'Please check and update your payout details:',
      { url: `${opts.publicUrl}/dashboard?tab=payouts`, label: 'Check your payout details' },
    ],
    opts.publicUrl,
  );
  return {
    kind: 'payment_returned',
    to: recruiter.email,
    subject: `Your payment of ${displayMoney(p.amount)} was returned: please check your payout details`,
    text,
    html,
    dealerId: recruiter.id,
  };
}
