import { CALL_TIME_ZONE, todayIn } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { createHarness, mailHarnessForFile, uniqueEmail } from './helpers';
import { raceHarness } from './site-fixtures';

const h = mailHarnessForFile();

/** yyyy-mm-dd, `days` after today in the business's zone. */
function dayFromToday(days: number): string {
  const [y, m, d] = todayIn(CALL_TIME_ZONE).split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

const booking = (over: Record<string, unknown> = {}) => ({
  name: 'Carl Caller',
  email: uniqueEmail('caller'),
  phone: '512-555-0100',
  preferredDate: dayFromToday(3),
  preferredTime: 'afternoon',
  status: 'scheduled',
  ...over,
});
const post = (payload: unknown) =>
  h.app.inject({ method: 'POST', url: '/api/schedule-call', payload: payload as object });
const callsOf = (email: string) =>
  h.db.selectFrom('callSchedules').selectAll().where('email', '=', email.toLowerCase()).execute();

describe('POST /api/schedule-call', () => {
  it('stores a scheduled call and emails a confirmation with the window, zone and an .ics file', async () => {
    const body = booking({ preferredTime: 'evening' });
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'scheduled', preferredTime: 'evening' });
    const [row] = await callsOf(body.email);
    expect(row).toMatchObject({ status: 'scheduled', preferredDate: body.preferredDate, phone: '+15125550100' });

    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(body.email, /call is booked/);
    expect(mail.text).toContain('5 PM - 8 PM');
    expect(mail.text).toContain('Eastern Time');
    expect(mail.text).toContain('America/New_York');
    const [y, m, d] = body.preferredDate.split('-').map(Number);
    const long = new Intl.DateTimeFormat('en-US', {
      timeZone: 'UTC',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    }).format(new Date(Date.UTC(y!, m! - 1, d!)));
    expect(mail.text).toContain(long);
    const ics = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(ics?.filename).toMatch(/\.ics$/);
    const compact = body.preferredDate.replace(/-/g, '');
    expect(ics?.content).toContain('BEGIN:VEVENT');
    expect(ics?.content).toContain(`DTSTART;TZID=America/New_York:${compact}T170000`);
    expect(ics?.content).toContain(`DTEND;TZID=America/New_York:${compact}T200000`);
  });

  it('accepts today, defaults the window to morning', async () => {
    const body = booking({ preferredDate: dayFromToday(0), preferredTime: undefined });
    expect((await post(body)).statusCode).toBe(200);
    expect((await callsOf(body.email))[0]?.preferredTime).toBe('morning');
  });

  it('a visitor cannot choose the status: every booking starts scheduled', async () => {
    const body = booking({ status: 'completed', notes: 'please call after lunch' });
    expect((await post(body)).statusCode).toBe(200);
    expect((await callsOf(body.email))[0]).toMatchObject({ status: 'scheduled', notes: 'please call after lunch' });
  });

  it('refuses the same email, date and window twice with 409 (any letter case)', async () => {
    const body = booking();
    expect((await post(body)).statusCode).toBe(200);
    const again = await post({ ...body, email: body.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already booked a call for this date and time window/);
    expect(await callsOf(body.email)).toHaveLength(1);
    expect((await post({ ...body, preferredTime: 'morning' })).statusCode).toBe(200);
  });

  it('lets only one of simultaneous identical bookings through', async () => {
    const race = await raceHarness();
    try {
      const body = booking();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => race.app.inject({ method: 'POST', url: '/api/schedule-call', payload: body })),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(9);
      const rows = await race.db.selectFrom('callSchedules').select('id').where('email', '=', body.email).execute();
      expect(rows).toHaveLength(1);
    } finally {
      await race.close();
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a past date', { preferredDate: dayFromToday(-1) }, 'Preferred date cannot be in the past'],
    ['no date', { preferredDate: '' }, 'Preferred date is required'],
    ['a date that is not one', { preferredDate: '2030-02-31' }, 'Preferred date must be a date like 2026-12-01'],
    ['an unknown window', { preferredTime: 'night' }, 'Preferred time must be morning, afternoon or evening'],
    ['no name', { name: ' ' }, 'Name is required'],
    ['no email', { email: '' }, 'Email required'],
    ['a bad email', { email: 'nope' }, 'Valid email is required'],
    ['no phone', { phone: '' }, 'Phone required'],
  ];
  for (const [name, over, message] of invalid) {
    it(`refuses ${name}: 400 '${message}', nothing stored`, async () => {
      const body = booking(over);
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      if (typeof body.email === 'string' && body.email) expect(await callsOf(body.email)).toHaveLength(0);
    });
  }

  it('never answers 5xx to malformed bodies', async () => {
    for (const payload of ['x', '[1]', '{"name":', JSON.stringify({ ...booking(), preferredDate: 20301201 })]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/schedule-call',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it('works through the tRPC twin', async () => {
    const body = booking();
    const res = await h.app.inject({ method: 'POST', url: '/trpc/site.scheduleCall', payload: body });
    expect(res.statusCode).toBe(200);
    expect(await callsOf(body.email)).toHaveLength(1);
  });

  it('rate-limits bookings per address', async () => {
    const limited = await createHarness({ limits: { callPerIp: { max: 1, windowSec: 60 } } });
    try {
      const a = await limited.app.inject({ method: 'POST', url: '/api/schedule-call', payload: booking() });
      const b = await limited.app.inject({ method: 'POST', url: '/api/schedule-call', payload: booking() });
      expect([a.statusCode, b.statusCode]).toEqual([200, 429]);
    } finally {
      await limited.close();
    }
  });
});
