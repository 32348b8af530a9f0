import type { MailMessage } from './outbox';
import { render } from './render';

/** Issue 45: the emails about a dealer's own payout details (render.ts writes every value inert). */

const METHOD = { ach: 'direct deposit', check: 'paper check' } as const;

/**
 * Sent at once when the method, routing number or account number of a dealer's payouts changes:
 * what it was (the old account's last 4 digits), what it is now, and when the new one is first paid.
 */
export function payoutDetailsChangedEmail(
  dealer: { id: string; fullName: string; email: string },
  c: {
    before: { method: 'ach' | 'check'; accountLast4: string | null };
    after: { method: 'ach' | 'check'; accountLast4: string | null };
    payableFrom: Date;
    ip: string | null;
  },
  opts: { publicUrl: string },
): MailMessage {
  const was = (s: { method: 'ach' | 'check'; accountLast4: string | null }) =>
    s.method === 'ach' && s.accountLast4
      ? `${METHOD.ach} to the account ending in ${s.accountLast4}`
      : METHOD[s.method];
  const from = `${c.payableFrom.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const { text, html } = render(
    [
      `Hi ${dealer.fullName},`,
      `Your payout details were changed: payouts went by ${was(c.before)}, and now go by ${was(c.after)}.`,
      `For your safety, nothing is paid to the new details before ${from}.`,
      {
        lines: [
          'If you made this change, there is nothing to do.',
          'If you did not, change your password at once and update your payout details, then contact us:',
        ],
      },
      { url: `${opts.publicUrl}/dashboard?tab=payouts`, label: 'Check your payout details' },
      ...(c.ip ? [`The change was made from IP address ${c.ip}.`] : []),
    ],
    opts.publicUrl,
  );
  return {
    kind: 'payout_details_changed',
    to: dealer.email,
    subject: 'Your payout details were changed',
    text,
    html,
    dealerId: dealer.id,
  };
}
