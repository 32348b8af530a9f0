import { EXPIRED_PAUSE_WORDS } from '@dn/schema';
import type { MailMessage } from './outbox';
import { render } from './render';

/**
 * Issue 50 (decision 1123): the installer whose area was paused after offers expired in a row hears
 * why, and how to resume (Resume on the dashboard's service area).
 */
export function offersPausedEmail(
  d: { dealerId: string; email: string; fullName: string },
  opts: { publicUrl: string },
): MailMessage {
  const { text, html } = render(
    [
      `Hello ${d.fullName},`,
      EXPIRED_PAUSE_WORDS.emailWhy,
      EXPIRED_PAUSE_WORDS.emailWhyItMatters,
      EXPIRED_PAUSE_WORDS.emailHowToResume,
      { url: `${opts.publicUrl}/dashboard`, label: 'Open your dashboard' },
    ],
    opts.publicUrl,
  );
  return {
    kind: 'job_offers_paused',
    to: d.email,
    subject: EXPIRED_PAUSE_WORDS.emailSubject,
    text,
    html,
    dealerId: d.dealerId,
  };
}
