import {
  CALL_DURATION_MINUTES,
  CALL_TIME_ZONE,
  CALL_TIME_ZONE_LABEL,
  CALL_WINDOWS,
  type CallTime,
  type Tier,
} from '@dn/schema';
import { buildIcs } from '../lib/ics';
import type { MailMessage } from './mail';

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
  const text = [
    `Hi ${call.name},`,
    '',
    `Thanks for booking a free ${CALL_DURATION_MINUTES}-minute call about the dealer program.`,
    '',
    `Date: ${longDate(call.preferredDate)}`,
    `Time window: ${window.label}, ${window.range}`,
    `Time zone: ${CALL_TIME_ZONE_LABEL} (${CALL_TIME_ZONE})`,
    `We will call you at: ${call.phone}`,
    '',
    'A member of our team will call you during that window. The attached calendar file holds the window in your calendar.',
    '',
    `Learn more before the call: ${opts.publicUrl}/presentation`,
  ].join('\n');
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
    attachments: [{ filename: 'dealer-program-call.ics', contentType: 'text/calendar; charset=utf-8', content: ics }],
  };
}

export function applicationReceivedEmail(
  dealer: { id: string; fullName: string; email: string; tier: Tier },
  opts: { publicUrl: string },
): MailMessage {
  const text = [
    `Hi ${dealer.fullName},`,
    '',
    `We received your application to become a ${dealer.tier} dealer. Thank you!`,
    '',
    'What happens next:',
    '- Our team reviews your application within 2-3 business days.',
    '- Once approved, we schedule your onboarding call within 5 business days.',
    '- You will receive an email with a link to set your password and open your dealer dashboard.',
    '',
    `Meanwhile, see the program overview: ${opts.publicUrl}/presentation`,
  ].join('\n');
  return {
    kind: 'application_received',
    to: dealer.email,
    subject: 'Application received',
    text,
    dealerId: dealer.id,
  };
}
