import { displayMoney, formatPhone, formatWhen, HOMEOWNER_WORDS, plural, stateTimeZone } from '@dn/schema';
import { buildIcs } from '../../lib/ics';
import type { MailMessage } from './outbox';
import { render } from './render';
import { longDate } from './templates';

/** The installation network's emails (issue 37): the homeowner's four, and the team's digest of unrouted jobs. */

interface Homeowner {
  id: string;
  homeownerName: string;
  homeownerEmail: string;
}
interface Installer {
  companyName: string | null;
  fullName: string;
  phoneE164: string;
}

const companyOf = (i: Installer) => i.companyName ?? i.fullName;

/** Who a homeowner asks (issue 47): a reply reaches the team when REPLY_TO is set (outbox.ts REPLY_KINDS). */
const questions = (replyTo: string | undefined) =>
  replyTo ? [`${HOMEOWNER_WORDS.questions} ${HOMEOWNER_WORDS.replyToEmail}`] : [];

/** What happens next: an installer answers by the offer's deadline, nobody is free, or the seller installs. */
export type ReceivedNext = { kind: 'offered'; by: Date } | { kind: 'unrouted' } | { kind: 'seller' };

const nextWords = (next: ReceivedNext, state: string) =>
  next.kind === 'offered'
    ? [`${HOMEOWNER_WORDS.expectBy(formatWhen(next.by, stateTimeZone(state)))} ${HOMEOWNER_WORDS.ifNobody}`]
    : next.kind === 'unrouted'
      ? [HOMEOWNER_WORDS.unrouted]
      : [];

/**
 * The request arrived (issue 47: when they hear, and what if nobody takes it). The offer's deadline
 * is written in the zone of the home's state.
 */
export function jobReceivedEmail(
  job: Homeowner & { state: string },
  opts: { statusUrl: string; next: ReceivedNext; replyTo?: string | undefined },
): MailMessage {
  const { text, html } = render([
    `Hi ${job.homeownerName},`,
    `We received your installation request for ${HOMEOWNER_WORDS.what}. We are finding a certified installer near you; they will call you to schedule the work.`,
    ...nextWords(opts.next, job.state),
    ...questions(opts.replyTo),
    'Follow your request at any time (a private link, no sign-in needed):',
    { url: opts.statusUrl, label: 'Installation status' },
  ]);
  return { kind: 'job_received', to: job.homeownerEmail, subject: 'We received your installation request', text, html };
}

export function jobAcceptedEmail(job: Homeowner, installer: Installer, opts: { statusUrl: string }): MailMessage {
  const company = companyOf(installer);
  const { text, html } = render([
    `Hi ${job.homeownerName},`,
    `${company} will do your installation. They will call you to schedule it; you can call them too.`,
    { lines: [`Installer: ${company}`, `Phone: ${formatPhone(installer.phoneE164)}`] },
    { url: opts.statusUrl, label: 'Installation status' },
  ]);
  return { kind: 'job_accepted', to: job.homeownerEmail, subject: `Your installer: ${company}`, text, html };
}

export function jobScheduledEmail(
  job: Homeowner & { street: string; city: string; state: string },
  installer: Installer,
  opts: { statusUrl: string; date: string },
): MailMessage {
  const company = companyOf(installer);
  const { text, html } = render([
    `Hi ${job.homeownerName},`,
    `${company} scheduled your installation for ${longDate(opts.date)}. The attached calendar file holds the day in your calendar.`,
    { lines: [`Installer: ${company}`, `Phone: ${formatPhone(installer.phoneE164)}`] },
    { url: opts.statusUrl, label: 'Installation status' },
  ]);
  const ics = buildIcs({
    uid: `job-${job.id}`,
    date: opts.date,
    startHour: 8,
    endHour: 17,
    timeZone: 'America/Chicago',
    summary: `Attic installation (${company})`,
    description: `${company} does your installation at ${job.street}, ${job.city}, ${job.state}. Phone: ${formatPhone(installer.phoneE164)}.`,
    attendee: { name: job.homeownerName, email: job.homeownerEmail },
  });
  return {
    kind: 'job_scheduled',
    to: job.homeownerEmail,
    subject: `Installation scheduled: ${longDate(opts.date)}`,
    text,
    html,
    attachments: [{ filename: 'installation.ics', contentType: 'text/calendar; charset=utf-8', content: ics }],
  };
}

export function jobInstalledEmail(job: Homeowner, installer: Installer, opts: { statusUrl: string }): MailMessage {
  const { text, html } = render([
    `Hi ${job.homeownerName},`,
    `${companyOf(installer)} marked your installation as done. Thank you for choosing the network!`,
    'Please tell us on your status page whether the installation was completed, and rate your installer: one to five stars and a comment if you like. It takes a minute, and it helps the network send homeowners the installers who serve them well.',
    { url: opts.statusUrl, label: 'Confirm and rate your installation' },
  ]);
  return { kind: 'job_installed', to: job.homeownerEmail, subject: 'Your installation is complete', text, html };
}

/**
 * The team's digest of the jobs that found no installer since the last one (issue 45, decision 1022):
 * at most one every 15 minutes, with no requester text in the subject (a count only) and in the body
 * only what the request's checks fixed (ZIP code, amount): the names and notes are in the console.
 */
export function jobsUnroutedDigestEmail(
  to: string,
  jobs: readonly { zipCode: string; amount: string | null }[],
  opts: { publicUrl: string },
): MailMessage {
  const n = jobs.length;
  const shown = jobs.slice(0, 50);
  const { text, html } = render(
    [
      `${plural(n, 'job')} found no installer: nobody in range took ${n === 1 ? 'it' : 'them'}.`,
      {
        intro: 'Assign them by hand in the Jobs section of the console:',
        items: [
          ...shown.map((j) => `ZIP code ${j.zipCode}${j.amount ? `, sale amount ${displayMoney(j.amount)}` : ''}`),
          ...(n > shown.length ? [`and ${plural(n - shown.length, 'more job')}`] : []),
        ],
      },
      { url: `${opts.publicUrl}/admin/jobs?status=unrouted`, label: 'Unrouted jobs' },
    ],
    opts.publicUrl,
  );
  return {
    kind: 'job_unrouted',
    to,
    subject: `${plural(n, 'job')} need${n === 1 ? 's' : ''} an installer`,
    text,
    html,
  };
}
