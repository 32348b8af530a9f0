import { wordingFaults } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { jobOfferEmail, jobOfferReminderEmail } from './offer-templates';

/** Issue 47: the installer's offer email says what, where, how far and by when, in their zone. */
const offer = {
  offerId: '11111111-2222-3333-4444-555555555555',
  dealerId: 'd1',
  email: 'ivan@example.com',
  fullName: 'Ivan Installer',
  distanceMiles: '12.3',
  expiresAt: new Date('2026-11-30T19:00:00Z'),
  city: 'North Pole',
  state: 'AK',
  zipCode: '99705',
  fans: 2,
  atticSqFt: 1800,
  notes: 'Dog in the yard <script>alert(1)</script> & gate code 1234',
};
const opts = { publicUrl: 'https://dealers.test', timeZone: 'America/Anchorage' };

describe('job offer emails', () => {
  it('say what, where, how far, by when in the installer zone, with one button to the offer', () => {
    const m = jobOfferEmail(offer, opts);
    expect(m.kind).toBe('job_offer');
    expect(m.category).toBeUndefined();
    expect(m.subject).toBe('Job offer in North Pole, AK: answer by Mon, Nov 30, 10:00 AM AKT');
    expect(m.text).toContain('What: 2 solar attic fans, 1,800 sq ft attic');
    expect(m.text).toContain('Where: North Pole, AK 99705');
    expect(m.text).toContain('How far: 12.3 miles');
    expect(m.text).toContain('Answer by: Mon, Nov 30, 10:00 AM AKT');
    expect(m.text).toContain(`https://dealers.test/dashboard?offer=${offer.offerId}`);
    expect(m.html?.match(/<a /g)).toHaveLength(1);
    // The notes are the public's words: inert in HTML.
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;');
    for (const t of [m.subject, m.text]) expect(wordingFaults(t), t).toEqual([]);
  });

  it('the reminder is a reminders-category message with the same facts', () => {
    const m = jobOfferReminderEmail({ ...offer, notes: null, fans: null }, opts);
    expect(m).toMatchObject({ kind: 'job_offer_reminder', category: 'reminders' });
    expect(m.subject).toContain('closes Mon, Nov 30, 10:00 AM AKT');
    expect(m.text).toContain('Solar attic fans or attic insulation');
    expect(m.text).not.toContain('notes');
    for (const t of [m.subject, m.text]) expect(wordingFaults(t), t).toEqual([]);
  });
});
