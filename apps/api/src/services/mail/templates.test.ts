import { ADMIN_ROLES, TIERS, type Tier, wordingFaults } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import type { MailMessage } from './outbox';
import * as templates from './templates';

/**
 * Issue 36: every email reads right for every tier, role and count 0, 1 and 2: no "a Affiliate",
 * no "1 commissions", no "(s)", and money with its sign. A template missing from BUILD fails the
 * first test, so a new one cannot skip the check.
 */
const publicUrl = 'https://dealers.test';
const token = 'a'.repeat(43);
const dealer = (tier: Tier | null) => ({
  id: 'd1',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  tier,
});
const ORDERED_AT = new Date('2026-11-02T15:00:00Z');

type Build = (n: number) => MailMessage[];
const perTier = (f: (tier: Tier) => MailMessage) => () => TIERS.map(f);
const BUILD: Record<string, Build> = {
  callConfirmationEmail: () =>
    (['morning', 'afternoon', 'evening'] as const).map((preferredTime) =>
      templates.callConfirmationEmail(
        {
          id: 'c1',
          name: 'Ada',
          email: 'ada@example.com',
          phone: '555-0100',
          preferredDate: '2026-12-01',
          preferredTime,
        },
        { publicUrl },
      ),
    ),
  applicationReceivedEmail: perTier((tier) =>
    templates.applicationReceivedEmail(
      { ...dealer(tier), tier },
      { publicUrl, statusUrl: `${publicUrl}/application/x` },
    ),
  ),
  applicationExistsEmail: () => [templates.applicationExistsEmail(dealer(null), { publicUrl })],
  approvalEmail: () =>
    [...TIERS, null].flatMap((tier) =>
      [false, true].map((resend) => templates.approvalEmail(dealer(tier), { publicUrl, token, resend })),
    ),
  resetEmail: () => [templates.resetEmail(dealer(null), { publicUrl, token })],
  dealerLockedEmail: () => [templates.dealerLockedEmail(dealer(null), { publicUrl, token, until: ORDERED_AT })],
  adminLockedEmail: () => [
    templates.adminLockedEmail({ username: 'owner', email: 'o@example.com' }, { publicUrl, until: ORDERED_AT }),
  ],
  passwordChangedEmail: () => [templates.passwordChangedEmail(dealer(null), { publicUrl })],
  commissionEarnedEmail: (n) => [
    templates.commissionEarnedEmail(
      dealer(null),
      { amount: `${n}.00`, referredName: 'Bob', orderedAt: ORDERED_AT },
      { publicUrl },
    ),
  ],
  payoutDetailsNeededEmail: (n) => [
    templates.payoutDetailsNeededEmail(
      { id: 'd1', fullName: 'Ada Lovelace', email: 'ada@example.com' },
      { amount: `${n}000.50`, reason: 'your payout details and W-9 are not complete' },
      { publicUrl },
    ),
  ],
  paymentReturnedEmail: (n) => [
    templates.paymentReturnedEmail(
      { id: 'd1', fullName: 'Ada Lovelace', email: 'ada@example.com' },
      { amount: `${n}000.50`, returnCode: 'R03' },
      { publicUrl },
    ),
  ],
  payoutSentEmail: (n) => [
    templates.payoutSentEmail(
      dealer(null),
      { amount: `${n}000.50`, commissionCount: n, reference: 'ACH-1' },
      { publicUrl },
    ),
  ],
  rejectionEmail: () =>
    [undefined, 'team@example.com'].map((replyTo) =>
      templates.rejectionEmail(dealer('Affiliate'), { reason: 'Outside our area', publicUrl, replyTo }),
    ),
  suspensionEmail: () =>
    [undefined, 'team@example.com'].map((replyTo) =>
      templates.suspensionEmail(dealer('Affiliate'), { publicUrl, replyTo }),
    ),
  reactivationEmail: () => [templates.reactivationEmail(dealer(null), { publicUrl })],
  tierChangeEmail: () =>
    TIERS.flatMap((from) => TIERS.map((to) => templates.tierChangeEmail(dealer(from), { from, to, publicUrl }))),
  adminInviteEmail: () =>
    ADMIN_ROLES.map((role) =>
      templates.adminInviteEmail('new@example.com', { publicUrl, token, role, invitedBy: 'owner' }),
    ),
  // Issue 38.
  callReminderEmail: () =>
    (['morning', 'afternoon', 'evening'] as const).map((preferredTime) =>
      templates.callReminderEmail(
        { name: 'Ada', email: 'ada@example.com', phone: '555-0100', preferredDate: '2026-12-01', preferredTime },
        { manageUrl: `${publicUrl}/call/${token}` },
      ),
    ),
  reviewDigestEmail: (n) => [
    templates.reviewDigestEmail('owner@example.com', {
      date: '2026-12-10',
      pending: n + 1,
      overdue: n,
      sections: [
        { title: 'Overdue applications (oldest first):', lines: Array.from({ length: n }, (_, i) => `Applicant ${i}`) },
        { title: 'Onboarding steps overdue:', lines: [] },
      ],
      publicUrl,
    }),
  ],
};

const texts = (m: MailMessage) => [m.subject, m.text, (m.html ?? '').replace(/<[^>]+>/g, ' ')];

describe('email templates read right (issue 36)', () => {
  it('every template is built here', () => {
    const exported = Object.entries(templates)
      .filter(([name, v]) => typeof v === 'function' && name.endsWith('Email'))
      .map(([name]) => name);
    expect(exported.sort()).toEqual(Object.keys(BUILD).sort());
  });

  const cases = Object.keys(BUILD).flatMap((name) => [0, 1, 2].map((n) => [name, n] as const));
  it.each(cases)('%s with count %i', (name, n) => {
    for (const m of BUILD[name]!(n)) {
      for (const t of texts(m)) expect(wordingFaults(t), t).toEqual([]);
      // Money is shown with its sign: no bare amount like "1000.50".
      expect(m.text).not.toMatch(/(?<![$\d,.])\d+\.\d\d\b/);
    }
  });

  it('says "an Affiliate dealer" and counts a payout\'s commissions', () => {
    const received = templates.applicationReceivedEmail(dealer('Affiliate') as never, { publicUrl });
    expect(received.text).toContain('to become an Affiliate dealer.');
    const approved = templates.approvalEmail(dealer('Affiliate'), { publicUrl, token });
    expect(approved.text).toContain('you are now an Affiliate dealer in our network');
    expect(templates.approvalEmail(dealer('Preferred'), { publicUrl, token }).text).toContain('now a Preferred dealer');
    expect(BUILD.payoutSentEmail!(1)[0]!.text).toContain('$1,000.50 for 1 commission was sent');
  });

  it('asks for a reply only when REPLY_TO is set; otherwise points to a call on the site', () => {
    const [without, withReply] = BUILD.rejectionEmail!(1);
    expect(without!.text).not.toMatch(/reply to this email/i);
    expect(without!.text).toContain(`book a call with our team at ${publicUrl}/`);
    expect(withReply!.text).toContain('reply to this email');
    const [suspendedWithout] = BUILD.suspensionEmail!(1);
    expect(suspendedWithout!.text).not.toMatch(/reply to this email/i);
  });
});

describe('every email is well formed (issue 40)', () => {
  const decode = (html: string) =>
    html
      .replace(/<[^>]+>/g, '\n')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  it.each(Object.keys(BUILD))('%s has a text part with the words of its HTML part', (name) => {
    for (const m of BUILD[name]!(1)) {
      expect(m.html, 'an HTML part').toBeTruthy();
      expect(m.text.trim().length).toBeGreaterThan(0);
      const visible = decode(m.html ?? '');
      // The same blocks rendered twice (render.ts): each line of the text is in the HTML.
      for (const line of m.text.split('\n').filter(Boolean)) expect(visible).toContain(line.replace(/^- /, ''));
    }
  });
});
