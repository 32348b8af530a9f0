import { describe, expect, it } from 'vitest';
import * as jobs from './job-templates';
import * as onboarding from './onboarding-templates';
import { type MailMessage, outboxRow } from './outbox';
import * as payees from './payee-templates';
import { inert, render } from './render';
import * as templates from './templates';

/**
 * Issue 45, finding 7 (decision 1023): names, notes and reasons typed by someone reach every email
 * inert: no link (neither a URL nor a bare host a mail client would link), markup escaped, no line
 * break forged inside a value. A property of the renderer (render.ts), checked here over every
 * template of every module: each is built with hostile text in every free-text field. A template
 * missing from BUILD fails the first test.
 */

const site = 'https://dealers.test';
const token = 'a'.repeat(43);
const HOSTILE =
  'Eve http://evil.example/login <a href="https://evil.example/x">click</a> <script>alert(1)</script> www.evil.example evil.example/pay\nForged: line';
const at = new Date('2026-11-02T15:00:00Z');

/** Every template's message(s), with `t` in each field a person types. */
const BUILD = (t: string): Record<string, () => MailMessage[]> => {
  const dealer = { id: 'd1', fullName: t, email: 'ada@example.com', tier: 'Affiliate' as const };
  const call = { id: 'c1', name: t, email: 'ada@example.com', phone: '555-0100', preferredDate: '2026-12-01' };
  const job = {
    id: 'j1',
    homeownerName: t,
    homeownerEmail: 'hanna@example.com',
    street: t,
    city: t,
    state: 'TX',
    zipCode: '78701',
    amount: '1500.00',
  };
  const installer = { companyName: t, fullName: t, phoneE164: '+15125550100' };
  const statusUrl = `${site}/quote/${token}`;
  return {
    callConfirmationEmail: () => [
      templates.callConfirmationEmail({ ...call, preferredTime: 'morning' }, { publicUrl: site }),
    ],
    applicationReceivedEmail: () => [
      templates.applicationReceivedEmail(dealer, { publicUrl: site, statusUrl: `${site}/application/${token}` }),
    ],
    applicationExistsEmail: () => [templates.applicationExistsEmail(dealer, { publicUrl: site })],
    approvalEmail: () => [templates.approvalEmail(dealer, { publicUrl: site, token })],
    resetEmail: () => [templates.resetEmail(dealer, { publicUrl: site, token })],
    dealerLockedEmail: () => [templates.dealerLockedEmail(dealer, { publicUrl: site, token, until: at })],
    adminLockedEmail: () => [
      templates.adminLockedEmail({ username: t, email: 'o@example.com' }, { publicUrl: site, until: at }),
    ],
    passwordChangedEmail: () => [templates.passwordChangedEmail(dealer, { publicUrl: site })],
    commissionEarnedEmail: () => [
      templates.commissionEarnedEmail(dealer, { amount: '10.00', referredName: t, orderedAt: at }, { publicUrl: site }),
    ],
    payoutSentEmail: () => [
      templates.payoutSentEmail(dealer, { amount: '10.00', commissionCount: 2, reference: t }, { publicUrl: site }),
    ],
    rejectionEmail: () => [templates.rejectionEmail(dealer, { reason: t, publicUrl: site })],
    suspensionEmail: () => [templates.suspensionEmail(dealer, { publicUrl: site })],
    reactivationEmail: () => [templates.reactivationEmail(dealer, { publicUrl: site })],
    tierChangeEmail: () => [templates.tierChangeEmail(dealer, { from: 'Affiliate', to: 'Preferred', publicUrl: site })],
    adminInviteEmail: () => [
      templates.adminInviteEmail('new@example.com', { publicUrl: site, token, role: 'viewer', invitedBy: t }),
    ],
    callReminderEmail: () => [
      templates.callReminderEmail({ ...call, preferredTime: 'evening' }, { manageUrl: `${site}/call/${token}` }),
    ],
    reviewDigestEmail: () => [
      templates.reviewDigestEmail('owner@example.com', {
        date: '2026-12-10',
        pending: 2,
        overdue: 1,
        sections: [{ title: 'Overdue applications (oldest first):', lines: [t, t] }],
        publicUrl: site,
      }),
    ],
    payoutDetailsNeededEmail: () => [
      templates.payoutDetailsNeededEmail(dealer, { amount: '10.00', reason: t }, { publicUrl: site }),
    ],
    paymentReturnedEmail: () => [
      templates.paymentReturnedEmail(dealer, { amount: '10.00', returnCode: 'R03' }, { publicUrl: site }),
    ],
    agreementSignedEmail: () => [
      onboarding.agreementSignedEmail(dealer, {
        publicUrl: site,
        tier: 'Authorized',
        version: 2,
        pdf: { filename: 'agreement.pdf', contentType: 'application/pdf', content: 'x' },
      }),
    ],
    agreementUpdatedEmail: () => [
      {
        to: 'ada@example.com',
        ...onboarding.agreementUpdatedEmail({ publicUrl: site, tier: 'Authorized', version: 3 }),
      },
    ],
    onboardingCallEmail: () => [
      onboarding.onboardingCallEmail(
        dealer,
        { date: '2026-12-01', time: '10:00', timeZone: 'America/Chicago' },
        { publicUrl: site, token, reminder: false },
      ),
    ],
    complianceExpiryEmail: () => [
      onboarding.complianceExpiryEmail(
        dealer,
        { document: 'insurance', expiresOn: '2026-12-30', daysBefore: 30 },
        { publicUrl: site },
      ),
    ],
    complianceRejectedEmail: () => [
      onboarding.complianceRejectedEmail(
        dealer,
        { kind: 'insurance', expiresOn: '2026-12-30', reason: t },
        { publicUrl: site },
      ),
    ],
    jobReceivedEmail: () => [jobs.jobReceivedEmail(job, { statusUrl, next: { kind: 'unrouted' } })],
    jobAcceptedEmail: () => [jobs.jobAcceptedEmail(job, installer, { statusUrl })],
    jobScheduledEmail: () => [jobs.jobScheduledEmail(job, installer, { statusUrl, date: '2026-12-09' })],
    jobInstalledEmail: () => [jobs.jobInstalledEmail(job, installer, { statusUrl })],
    jobsUnroutedDigestEmail: () => [jobs.jobsUnroutedDigestEmail('ops@example.com', [job], { publicUrl: site })],
    payoutDetailsChangedEmail: () => [
      payees.payoutDetailsChangedEmail(
        dealer,
        {
          before: { method: 'ach', accountLast4: '6205' },
          after: { method: 'check', accountLast4: null },
          payableFrom: at,
          ip: '203.0.113.9',
        },
        { publicUrl: site },
      ),
    ],
  };
};

const templateNames = () =>
  [templates, jobs, onboarding, payees].flatMap((m) =>
    Object.entries(m)
      .filter(([name, v]) => typeof v === 'function' && name.endsWith('Email'))
      .map(([name]) => name),
  );

const links = (html: string) => [...html.matchAll(/<a\b[^>]*href="([^"]*)"/gi)].map((m) => m[1]!);

describe('every email is inert to what people type (issue 45)', () => {
  it('every template of every module is built here', () => {
    expect(templateNames().sort()).toEqual(Object.keys(BUILD('x')).sort());
  });

  it.each(Object.keys(BUILD('x')))('%s: hostile names and notes make no link, no markup, no extra line', (name) => {
    for (const m of BUILD(HOSTILE)[name]!()) {
      const stored = outboxRow(m);
      const html = m.html ?? '';
      for (const part of [stored.subject, m.text, html]) {
        expect(part, name).not.toMatch(/evil\.example/i);
        expect(part, name).not.toMatch(/https?:\/\/evil/i);
        expect(part, name).not.toContain('\nForged');
      }
      expect(stored.subject).not.toMatch(/[\r\n]/);
      // Markup arrives as text: escaped, never an element.
      expect(html).not.toMatch(/<script|<a href="https:\/\/evil/i);
      // The only links are the site's own (the template's { url, label } blocks).
      for (const href of links(html)) expect(href.startsWith(`${site}/`), `${name}: ${href}`).toBe(true);
    }
  });

  it.each(Object.keys(BUILD('x')))('%s: with ordinary names nothing is bracketed (no false alarms)', (name) => {
    for (const m of BUILD('Ada Lovelace')[name]!()) {
      for (const part of [m.subject, m.text, m.html ?? '']) expect(part, name).not.toMatch(/\[[.:]\]/);
    }
  });
});

describe('the renderer', () => {
  it('keeps the site URLs a template writes in a sentence, and only those', () => {
    expect(inert(`go to ${site}/login, then`, site)).toBe(`go to ${site}/login, then`);
    expect(inert(`(${site}/admin/login).`, site)).toBe(`(${site}/admin/login).`);
    expect(inert('https://dealers.test.evil.example/login', site)).toBe(
      'https[:]//dealers[.]test[.]evil[.]example/login',
    );
    expect(inert('https://dealers.testevil.example', site)).toBe('https[:]//dealers[.]testevil[.]example');
    expect(inert(`${site}/login`)).toBe('https[:]//dealers[.]test/login');
  });

  it('leaves amounts, IP addresses, dates and email addresses; strips hidden characters', () => {
    expect(inert('$1,500.00 from 203.0.113.9 on 2026-12-01 by ada@example.com.')).toBe(
      '$1,500.00 from 203.0.113.9 on 2026-12-01 by ada@example.com.',
    );
    expect(inert('evil\u200b.example \u202eabc')).toBe('evil[.]example abc');
    expect(inert('a\r\nb\u2028c')).toBe('a  b c');
  });

  it('a { url, label } block is the one way to a link; its label is text', () => {
    const { html, text } = render([{ url: `${site}/x`, label: 'Open evil.example' }, 'See https://evil.example'], site);
    expect(links(html)).toEqual([`${site}/x`]);
    expect(html).toContain('Open evil[.]example');
    expect(text).toContain('See https[:]//evil[.]example');
  });
});
