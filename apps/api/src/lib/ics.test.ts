import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText } from './ics';

const event = {
  uid: '7d1c7a3e-0000-4000-8000-000000000001',
  date: '2026-12-01',
  startHour: 9,
  endHour: 12,
  timeZone: 'America/New_York',
  summary: 'Dealer program call; morning, window',
  description: `Line one\nLine two with a very long tail ${'x'.repeat(120)}`,
  attendee: { name: 'Ann "Quote" Lee', email: 'ann@example.com' },
  now: new Date('2026-11-21T10:00:00Z'),
};

describe('buildIcs', () => {
  it('writes one event in the business zone with CRLF lines', () => {
    const ics = buildIcs(event);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n')).toBe(true);
    expect(ics).toContain('DTSTART;TZID=America/New_York:20261201T090000\r\n');
    expect(ics).toContain('DTEND;TZID=America/New_York:20261201T120000\r\n');
    expect(ics).toContain('DTSTAMP:20261121T100000Z\r\n');
    expect(ics).toContain(`UID:${event.uid}@dealer-network\r\n`);
    expect(ics).not.toMatch(/[^\r]\n/);
  });

  it('escapes text and keeps the attendee name from breaking the parameter', () => {
    const ics = buildIcs(event);
    expect(ics).toContain('SUMMARY:Dealer program call\\; morning\\, window');
    expect(ics).toContain('ATTENDEE;CN="Ann Quote Lee";RSVP=FALSE:mailto:ann@example.com');
    expect(escapeIcsText('a\\b')).toBe('a\\\\b');
  });

  it('folds lines longer than 75 octets', () => {
    const ics = buildIcs(event);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain(`DESCRIPTION:Line one\\nLine two with a very long tail ${'x'.repeat(120)}`);
  });
});
