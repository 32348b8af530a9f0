import { CALL_TIME_ZONE, todayIn } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { addBusinessDays } from '../src/lib/business-days';
import { ShiftedClock } from '../src/lib/clock';
import { remindComplianceExpiries, remindOnboardingCalls } from '../src/services/onboarding/sweeps';
import { mailHarnessForFile, outboxOf } from './helpers';
import { adminAs, approvedDealer, complianceDocument, plusDays, uploadDocument } from './onboarding-fixtures';

const clock = new ShiftedClock();
const h = mailHarnessForFile({ clock });

const get = (url: string, cookie?: string) =>
  h.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const send = (method: 'POST' | 'PUT', url: string, payload: object, cookie?: string) =>
  h.app.inject({ method, url, payload, ...(cookie ? { headers: { cookie } } : {}) });
const today = () => todayIn(CALL_TIME_ZONE, clock.now());
const stepOf = async (cookie: string, key: string) =>
  ((await get('/api/dealer/onboarding', cookie)).json().steps as { key: string }[]).find((s) => s.key === key) as
    | Record<string, unknown>
    | undefined;

const compliance = (over: Record<string, string> = {}) => ({
  insuranceCertUrl: 'https://certs.example.com/abc',
  insurer: 'Acme Mutual',
  insuranceExpiresOn: plusDays(today(), 25),
  licenseNumber: 'TX-123',
  licenseState: 'TX',
  licenseExpiresOn: plusDays(today(), 5),
  ...over,
});

describe('GET /api/dealer/onboarding', () => {
  it('lists only the steps of the dealer’s tier, with the call due 5 business days after approval', async () => {
    const affiliate = await approvedDealer(h, 'Affiliate');
    const res = await get('/api/dealer/onboarding', affiliate.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.steps.map((s: { key: string }) => s.key)).toEqual(['agreement', 'onboardingCall']);
    expect(body.complete).toBe(false);
    expect(body.steps[1]).toMatchObject({
      done: false,
      dueBy: addBusinessDays(today(), 5),
      overdue: false,
      call: null,
    });

    const preferred = await approvedDealer(h, 'Preferred', {
      approvedAt: new Date(clock.now().getTime() - 30 * 86_400_000),
    });
    const steps = (await get('/api/dealer/onboarding', preferred.cookie)).json().steps;
    expect(steps.map((s: { key: string }) => s.key)).toEqual([
      'agreement',
      'onboardingCall',
      'initialInventory',
      'insurance',
      'license',
    ]);
    expect(steps[1].overdue).toBe(true);
    expect(steps[2]).toMatchObject({
      done: false,
      required: '25000.00',
      upfront: '12500.00',
      paid: '0.00',
      dueNow: '12500.00',
    });
    expect((await get('/api/dealer/onboarding')).statusCode).toBe(401);
    expect((await get('/api/dealer/onboarding', await adminAs(h.app, 'owner'))).statusCode).toBe(403);
  });
});

describe('compliance steps (issue 45: on evidence)', () => {
  it('typed dates are no longer accepted (PUT /api/dealer/compliance is gone); a verified upload completes the step', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const typed = await send('PUT', '/api/dealer/compliance', compliance(), d.cookie);
    expect(typed.statusCode).toBe(404);
    expect(await stepOf(d.cookie, 'insurance')).toMatchObject({ done: false, expiresOn: null, documents: [] });
    const up = await uploadDocument(h.app, d.cookie, { expiresOn: plusDays(today(), 25) });
    expect(up.statusCode, up.body).toBe(201);
    expect(await stepOf(d.cookie, 'insurance')).toMatchObject({ done: false });
    const owner = await adminAs(h.app, 'owner');
    expect((await send('POST', `/api/admin/compliance/documents/${up.json().id}/verify`, {}, owner)).statusCode).toBe(
      200,
    );
    expect(await stepOf(d.cookie, 'insurance')).toMatchObject({
      done: true,
      expired: false,
      expiresOn: plusDays(today(), 25),
    });
    expect(await stepOf(d.cookie, 'license')).toMatchObject({ done: false });
  });

  it('reminds 30 and 7 days before each expiry, once each even when run twice at once', async () => {
    const d = await approvedDealer(h, 'Authorized', { fullName: 'Rita Reminder' });
    // Verified documents (issue 45); a pending one nearer its expiry is not reminded of.
    await complianceDocument(h.db, d.id, 'insurance', plusDays(today(), 25));
    await complianceDocument(h.db, d.id, 'licence', plusDays(today(), 5));
    await complianceDocument(h.db, d.id, 'insurance', plusDays(today(), 3), 'pending');
    const [a, b] = await Promise.all([remindComplianceExpiries(h.app.deps), remindComplianceExpiries(h.app.deps)]);
    const kinds = async () =>
      (
        await h.db
          .selectFrom('emailOutbox')
          .select('kind')
          .where('dealerId', '=', d.id)
          .where('kind', 'like', '%_expiry_%')
          .execute()
      )
        .map((r) => r.kind)
        .sort();
    // Insurance in 25 days: its 30-day notice; licence in 5: only the 7-day one.
    expect(await kinds()).toEqual(['insurance_expiry_30', 'license_expiry_7']);
    expect(a + b).toBeGreaterThanOrEqual(2);
    expect(await remindComplianceExpiries(h.app.deps)).toBe(0);
    await h.app.deps.mail.flush();
    await h.smtp.waitFor(d.email, /contractor licence expires/);

    const saved = clock.offsetMs;
    clock.advance(19 * 86_400_000); // insurance now 6 days out, licence expired
    try {
      await Promise.all([remindComplianceExpiries(h.app.deps), remindComplianceExpiries(h.app.deps)]);
      expect(await kinds()).toEqual(['insurance_expiry_30', 'insurance_expiry_7', 'license_expiry_7']);
      expect(await stepOf(d.cookie, 'license')).toMatchObject({ done: false, expired: true });
      expect((await get('/api/dealer/onboarding', d.cookie)).json().complete).toBe(false);
    } finally {
      clock.offsetMs = saved;
    }
  });
});

describe('POST /api/admin/dealers/{id}/inventory-payments', () => {
  it('records exact payments (reviewer and up) and the step shows paid and due', async () => {
    const d = await approvedDealer(h, 'Preferred');
    const reviewer = await adminAs(h.app, 'reviewer');
    const url = `/api/admin/dealers/${d.id}/inventory-payments`;
    const bad = await send('POST', url, { amount: '12.345', paidOn: today(), reference: 'wire 1' }, reviewer);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty('amount');
    expect((await send('POST', url, { amount: '0', paidOn: today(), reference: 'x' }, reviewer)).statusCode).toBe(400);
    expect(
      (await send('POST', url, { amount: '10.00', paidOn: 'yesterday', reference: 'x' }, reviewer)).json().fieldErrors,
    ).toHaveProperty('paidOn');
    expect(
      (await send('POST', url, { amount: '10.00', paidOn: today(), reference: 'x' }, await adminAs(h.app, 'viewer')))
        .statusCode,
    ).toBe(403);
    expect((await send('POST', url, { amount: '10.00', paidOn: today(), reference: 'x' }, d.cookie)).statusCode).toBe(
      403,
    );
    expect((await send('POST', url, { amount: '10.00', paidOn: today(), reference: 'x' })).statusCode).toBe(401);
    expect(await h.db.selectFrom('inventoryPayments').select('id').where('dealerId', '=', d.id).execute()).toEqual([]);

    const first = await send('POST', url, { amount: '12499.99', paidOn: today(), reference: 'wire 1' }, reviewer);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ amount: '12499.99', reference: 'wire 1' });
    expect(await stepOf(d.cookie, 'initialInventory')).toMatchObject({ done: false, paid: '12499.99', dueNow: '0.01' });
    await send('POST', url, { amount: '0.01', paidOn: today(), reference: 'wire 2' }, await adminAs(h.app, 'owner'));
    expect(await stepOf(d.cookie, 'initialInventory')).toMatchObject({
      done: true,
      paid: '12500.00',
      dueNow: '0.00',
      remaining: '12500.00',
    });
    const affiliate = await approvedDealer(h, 'Affiliate');
    expect(
      (
        await send(
          'POST',
          `/api/admin/dealers/${affiliate.id}/inventory-payments`,
          { amount: '1.00', paidOn: today(), reference: 'x' },
          reviewer,
        )
      ).statusCode,
    ).toBe(400);
  });

  it('owners change the required amounts; the upfront part may not exceed the whole', async () => {
    const owner = await adminAs(h.app, 'owner');
    const over = await send(
      'PUT',
      '/api/admin/onboarding-settings/Authorized',
      { inventoryRequired: '100.00', inventoryUpfront: '200.00' },
      owner,
    );
    expect(over.statusCode).toBe(400);
    expect(over.json().fieldErrors).toHaveProperty('inventoryUpfront');
    expect(
      (
        await send(
          'PUT',
          '/api/admin/onboarding-settings/Authorized',
          { inventoryRequired: '6000', inventoryUpfront: '6000' },
          await adminAs(h.app, 'reviewer'),
        )
      ).statusCode,
    ).toBe(403);
    const ok = await send(
      'PUT',
      '/api/admin/onboarding-settings/Authorized',
      { inventoryRequired: '6000', inventoryUpfront: '3000.5' },
      owner,
    );
    expect(ok.json()).toMatchObject({ tier: 'Authorized', inventoryRequired: '6000.00', inventoryUpfront: '3000.50' });
    const d = await approvedDealer(h, 'Authorized');
    expect(await stepOf(d.cookie, 'initialInventory')).toMatchObject({ required: '6000.00', upfront: '3000.50' });
    await send(
      'PUT',
      '/api/admin/onboarding-settings/Authorized',
      { inventoryRequired: '5000.00', inventoryUpfront: '5000.00' },
      owner,
    );
  });
});

describe('the onboarding call', () => {
  it('is booked on the business calendar, reminded 24 h before once, rescheduled by its link once, marked held', async () => {
    const d = await approvedDealer(h, 'Affiliate', { fullName: 'Cal Booker' });
    const date = addBusinessDays(today(), 3);
    const url = '/api/dealer/onboarding-call';
    const past = await send(
      'POST',
      url,
      { date: plusDays(today(), -1), time: '10:00', timeZone: 'America/New_York' },
      d.cookie,
    );
    expect(past.statusCode).toBe(400);
    const late = await send('POST', url, { date, time: '22:00', timeZone: 'America/New_York' }, d.cookie);
    expect(late.json().fieldErrors).toHaveProperty('time');
    expect(
      (await send('POST', url, { date, time: '10:00', timeZone: 'Mars/Base' }, d.cookie)).json().fieldErrors,
    ).toHaveProperty('timeZone');
    expect((await send('POST', url, { date, time: '10:00', timeZone: 'America/New_York' })).statusCode).toBe(401);
    expect(await h.db.selectFrom('onboardingCalls').select('dealerId').where('dealerId', '=', d.id).execute()).toEqual(
      [],
    );

    // 8:00 in Los Angeles is 11:00 Eastern: inside the calendar.
    const booked = await send('POST', url, { date, time: '08:00', timeZone: 'America/Los_Angeles' }, d.cookie);
    expect(booked.statusCode).toBe(201);
    const startsAt = new Date(booked.json().startsAt);
    expect(booked.json()).toMatchObject({ date, time: '08:00', status: 'booked' });
    expect(await stepOf(d.cookie, 'onboardingCall')).toMatchObject({ done: false, call: { date, status: 'booked' } });

    const saved = clock.offsetMs;
    try {
      expect(await remindOnboardingCalls(h.app.deps)).toBe(0); // more than 24 h ahead
      clock.advance(startsAt.getTime() - clock.now().getTime() - 23 * 3_600_000);
      const runs = await Promise.all([remindOnboardingCalls(h.app.deps), remindOnboardingCalls(h.app.deps)]);
      expect(runs[0] + runs[1]).toBe(1);
      expect(await remindOnboardingCalls(h.app.deps)).toBe(0);
      expect(await outboxOf(h.db, d.id, 'onboarding_call_reminder')).toHaveLength(1);
      await h.app.deps.mail.flush();
      const mail = await h.smtp.waitFor(d.email, /Reminder: your onboarding call/);
      const token = /#reschedule=([\w-]+)/.exec(mail.text)?.[1];
      expect(token).toBeTruthy();

      const next = addBusinessDays(date, 1);
      const reschedule = (time: string) =>
        send('POST', '/api/onboarding-call/reschedule', { token, date: next, time, timeZone: 'America/New_York' });
      const moved = await reschedule('14:00');
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ date: next, time: '14:00' });
      const reused = await reschedule('15:00');
      expect(reused.statusCode).toBe(410);
      expect((await stepOf(d.cookie, 'onboardingCall'))?.call).toMatchObject({ time: '14:00' });
    } finally {
      clock.offsetMs = saved;
    }

    const reviewer = await adminAs(h.app, 'reviewer');
    const mark = `/api/admin/dealers/${d.id}/onboarding-call/status`;
    expect((await send('POST', mark, { status: 'done' }, reviewer)).statusCode).toBe(400);
    expect((await send('POST', mark, { status: 'held' }, await adminAs(h.app, 'viewer'))).statusCode).toBe(403);
    expect((await send('POST', mark, { status: 'no_show' }, reviewer)).json()).toMatchObject({ status: 'no_show' });
    expect((await send('POST', url, { date, time: '10:00', timeZone: 'America/New_York' }, d.cookie)).statusCode).toBe(
      201,
    );
    expect((await send('POST', mark, { status: 'held' }, reviewer)).statusCode).toBe(200);
    expect(await stepOf(d.cookie, 'onboardingCall')).toMatchObject({ done: true });
    expect((await send('POST', url, { date, time: '11:00', timeZone: 'America/New_York' }, d.cookie)).statusCode).toBe(
      409,
    );
    const other = await approvedDealer(h, 'Affiliate');
    expect(
      (await send('POST', `/api/admin/dealers/${other.id}/onboarding-call/status`, { status: 'held' }, reviewer))
        .statusCode,
    ).toBe(404);
  });
});
