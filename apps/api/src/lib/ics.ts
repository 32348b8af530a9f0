import { randomUUID } from 'node:crypto';

export interface IcsEvent {
  uid?: string;
  /** Local wall-clock start in `timeZone`, e.g. 2026-12-01 09:00. */
  date: string;
  startHour: number;
  endHour: number;
  timeZone: string;
  summary: string;
  description: string;
  organizerEmail?: string;
  attendee?: { name: string; email: string };
  now?: Date;
}

/** Escapes a TEXT value (RFC 5545 section 3.3.11). */
export function escapeIcsText(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds lines longer than 75 octets (RFC 5545 section 3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 74;
    while (Buffer.byteLength(rest.slice(0, cut)) > 74) cut--;
    out.push(rest.slice(0, cut));
    rest = ` ${rest.slice(cut)}`;
  }
  out.push(rest);
  return out.join('\r\n');
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const local = (date: string, hour: number) => `${date.replace(/-/g, '')}T${String(hour).padStart(2, '0')}0000`;

/**
 * A single-event calendar request. Times are written in the business's zone with TZID, so a
 * calendar shows the window in the visitor's own zone; the name is an IANA zone, which every
 * mainstream calendar resolves without a VTIMEZONE block.
 */
export function buildIcs(e: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Dealer Network//Call Booking//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${e.uid ?? randomUUID()}@dealer-network`,
    `DTSTAMP:${stamp(e.now ?? new Date())}`,
    `DTSTART;TZID=${e.timeZone}:${local(e.date, e.startHour)}`,
    `DTEND;TZID=${e.timeZone}:${local(e.date, e.endHour)}`,
    `SUMMARY:${escapeIcsText(e.summary)}`,
    `DESCRIPTION:${escapeIcsText(e.description)}`,
    ...(e.organizerEmail ? [`ORGANIZER:mailto:${e.organizerEmail}`] : []),
    ...(e.attendee
      ? [`ATTENDEE;CN="${e.attendee.name.replace(/["\r\n]/g, '')}";RSVP=FALSE:mailto:${e.attendee.email}`]
      : []),
    'STATUS:TENTATIVE',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
