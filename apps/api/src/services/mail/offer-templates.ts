import { formatWhen, jobWhat } from '@dn/schema';
import type { MailMessage } from './outbox';
import { render } from './render';

/**
 * The installer's job offer (issue 47, decision 1060): what, where, how far, the deadline in their
 * time zone and one button to the offer on the dashboard; and the reminder when a quarter of the
 * window is left. The homeowner's contact is never in it: it is theirs once they accept.
 */

export interface OfferMail {
  offerId: string;
  dealerId: string;
  email: string;
  fullName: string;
  distanceMiles: string;
  expiresAt: Date;
  city: string;
  state: string;
  zipCode: string;
  fans: number | null;
  atticSqFt: number | null;
  notes: string | null;
}

/** The dashboard opened on this offer (after sign-in: the login page brings the dealer back to it). */
export const offerUrl = (publicUrl: string, offerId: string) => `${publicUrl}/dashboard?offer=${offerId}`;

/** The homeowner's notes as a quotation, cut at 500 characters; the renderer escapes them (inert in HTML). */
const notesOf = (notes: string | null) => {
  const t = (notes ?? '').replace(/\s+/g, ' ').trim();
  if (!t) return [];
  return [{ lines: ["The homeowner's notes:", `"${t.length > 500 ? `${t.slice(0, 499)}…` : t}"`] }];
};

function offerBody(o: OfferMail, opts: { publicUrl: string; timeZone: string }, lead: string) {
  const by = formatWhen(o.expiresAt, opts.timeZone);
  return render([
    `Hello ${o.fullName},`,
    lead,
    {
      lines: [
        `What: ${jobWhat(o)}`,
        `Where: ${o.city}, ${o.state} ${o.zipCode}`,
        `How far: ${Number(o.distanceMiles).toFixed(1)} miles from the center of your service area`,
        `Answer by: ${by}`,
      ],
    },
    ...notesOf(o.notes),
    `Accept it or decline it on your dashboard before ${by}; after that it goes to the next installer. The homeowner's name and phone are yours once you accept.`,
    { url: offerUrl(opts.publicUrl, o.offerId), label: 'See the offer' },
    'You get job offers because this address is in your service area. To stop them for a while, pause your service area on your dashboard.',
  ]);
}

export function jobOfferEmail(o: OfferMail, opts: { publicUrl: string; timeZone: string }): MailMessage {
  const { text, html } = offerBody(
    o,
    opts,
    'A homeowner near you wants an installation, and we are offering the job to you first.',
  );
  return {
    kind: 'job_offer',
    to: o.email,
    subject: `Job offer in ${o.city}, ${o.state}: answer by ${formatWhen(o.expiresAt, opts.timeZone)}`,
    text,
    html,
    dealerId: o.dealerId,
  };
}

export function jobOfferReminderEmail(o: OfferMail, opts: { publicUrl: string; timeZone: string }): MailMessage {
  const { text, html } = offerBody(o, opts, 'A reminder: the job we offered you is still waiting for your answer.');
  return {
    kind: 'job_offer_reminder',
    to: o.email,
    subject: `Reminder: the job offer in ${o.city}, ${o.state} closes ${formatWhen(o.expiresAt, opts.timeZone)}`,
    text,
    html,
    dealerId: o.dealerId,
    // A second notice of an offer already emailed: one a dealer can turn off (decision 1060).
    category: 'reminders',
  };
}
