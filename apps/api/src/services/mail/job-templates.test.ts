import { wordingFaults } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import * as templates from './job-templates';
import type { MailMessage } from './outbox';

/** The installation network's emails read right (issue 36's check) and carry what issue 37 says. */
const job = {
  id: 'j1',
  homeownerName: 'Hanna Homeowner',
  homeownerEmail: 'hanna@example.com',
  street: '12 Elm St',
  city: 'Austin',
  state: 'TX',
  zipCode: '78701',
  amount: '1500.00',
};
const installer = { companyName: 'Attic Pros', fullName: 'Ivan Installer', phoneE164: '+15125550100' };
const statusUrl = 'https://dealers.test/installation/abc';

const BUILD: Record<string, () => MailMessage> = {
  jobReceivedEmail: () =>
    templates.jobReceivedEmail(job, {
      statusUrl,
      next: { kind: 'offered', by: new Date('2026-11-30T16:00:00Z') },
      replyTo: 'help@dealers.test',
    }),
  jobAcceptedEmail: () => templates.jobAcceptedEmail(job, installer, { statusUrl }),
  jobScheduledEmail: () => templates.jobScheduledEmail(job, installer, { statusUrl, date: '2026-12-09' }),
  jobInstalledEmail: () => templates.jobInstalledEmail(job, installer, { statusUrl }),
  jobsUnroutedDigestEmail: () =>
    templates.jobsUnroutedDigestEmail('ops@example.com', [job, { ...job, amount: null }], {
      publicUrl: 'https://dealers.test',
    }),
};

describe('installation emails', () => {
  it('every template is built here', () => {
    expect(Object.keys(templates).sort()).toEqual(Object.keys(BUILD).sort());
  });

  it.each(Object.keys(BUILD))('%s reads right', (name) => {
    const m = BUILD[name]!();
    for (const t of [m.subject, m.text]) expect(wordingFaults(t), t).toEqual([]);
    expect(m.text).not.toMatch(/(?<![$\d,.])\d+\.\d\d\b/);
  });

  it('links the status page, names the installer, and attaches the day', () => {
    expect(BUILD.jobReceivedEmail!().text).toContain(statusUrl);
    // Issue 50: the "installed" email asks the confirmation and the rating, on the status page.
    const installed = BUILD.jobInstalledEmail!();
    expect(installed.text).toContain('whether the installation was completed, and rate your installer');
    expect(installed.text).toContain(statusUrl);
    expect(installed.html).toContain(`<a href="${statusUrl}">Confirm and rate your installation</a>`);
    expect(BUILD.jobAcceptedEmail!().text).toContain('Attic Pros');
    expect(BUILD.jobAcceptedEmail!().text).toContain('(512) 555-0100');
    // Issue 47: when the homeowner hears (in the home's zone), what if nobody takes it, and whom to ask.
    const received = BUILD.jobReceivedEmail!().text;
    expect(received).toContain('An installer near you will answer by Mon, Nov 30, 10:00 AM CT.');
    expect(received).toContain('we ask the next one near you');
    expect(received).toContain('Reply to any of our emails');
    expect(received).toContain('solar attic fans and attic insulation');
    const unrouted = templates.jobReceivedEmail(job, { statusUrl, next: { kind: 'unrouted' } }).text;
    expect(unrouted).toContain('Our team is finding one for you');
    expect(unrouted).not.toContain('Reply to');
    const ics = BUILD.jobScheduledEmail!().attachments?.[0]?.content ?? '';
    expect(ics).toContain('DTSTART;TZID=America/Chicago:20261209T080000');
    expect(BUILD.jobsUnroutedDigestEmail!().text).toContain('$1,500.00');
    // Issue 45: a count in the subject, never the requester's words.
    expect(BUILD.jobsUnroutedDigestEmail!().subject).toBe('2 jobs need an installer');
  });
});
