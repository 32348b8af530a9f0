import { CALL_TIME_ZONE, todayIn } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { addBusinessDays } from '../src/lib/business-days';
import { createCaller } from '../src/routers/index';
import { overdueBefore } from '../src/services/onboarding/list';
import { harnessForFile } from './helpers';
import { adminAs, approvedDealer, complianceDocument, plusDays } from './onboarding-fixtures';

const h = harnessForFile();
const today = () => todayIn(CALL_TIME_ZONE);
const DAY = 86_400_000;

describe('the dealer list’s onboarding column and filters', () => {
  it('agree with each dealer’s checklist, and list the incomplete and the overdue', async () => {
    const send = (method: 'POST' | 'PUT', url: string, payload: object, cookie: string) =>
      h.app.inject({ method, url, payload, headers: { cookie } });
    const reviewer = await adminAs(h.app, 'reviewer');
    // Fresh (due later), late (approved 30 days ago), complete affiliate, installer with expired licence.
    const fresh = await approvedDealer(h, 'Authorized', { fullName: 'Fresh One' });
    const late = await approvedDealer(h, 'Preferred', {
      fullName: 'Late One',
      approvedAt: new Date(Date.now() - 30 * DAY),
    });
    const done = await approvedDealer(h, 'Affiliate', {
      fullName: 'Done One',
      approvedAt: new Date(Date.now() - 30 * DAY),
    });
    const lapsed = await approvedDealer(h, 'Authorized', { fullName: 'Lapsed One' });
    for (const d of [done, lapsed]) {
      const version = (
        await h.app.inject({ method: 'GET', url: '/api/dealer/agreement', headers: { cookie: d.cookie } })
      ).json().version;
      await send(
        'POST',
        '/api/dealer/agreement/sign',
        { version, signatureName: d === done ? 'Done One' : 'Lapsed One', accept: true },
        d.cookie,
      );
      await send(
        'POST',
        '/api/dealer/onboarding-call',
        { date: addBusinessDays(today(), 2), time: '10:00', timeZone: CALL_TIME_ZONE },
        d.cookie,
      );
      await send('POST', `/api/admin/dealers/${d.id}/onboarding-call/status`, { status: 'held' }, reviewer);
    }
    await send(
      'POST',
      `/api/admin/dealers/${lapsed.id}/inventory-payments`,
      { amount: '5000.00', paidOn: today(), reference: 'w' },
      reviewer,
    );
    // Verified documents (issue 45): insurance current, the licence expired yesterday; a pending
    // licence renewal does not count.
    await complianceDocument(h.db, lapsed.id, 'insurance', plusDays(today(), 90));
    await complianceDocument(h.db, lapsed.id, 'licence', plusDays(today(), -1));
    await complianceDocument(h.db, lapsed.id, 'licence', plusDays(today(), 90), 'pending');

    const admin = await h.db
      .selectFrom('admins')
      .select(['id', 'username'])
      .where('role', '=', 'reviewer')
      .executeTakeFirstOrThrow();
    const caller = createCaller({
      ...h.app.deps,
      user: {
        id: admin.id,
        role: 'admin',
        username: admin.username,
        fullName: 'R',
        email: null,
        status: null,
        tier: null,
        adminRole: 'reviewer',
      },
      meta: { ip: '127.0.0.1', userAgent: null, referrer: null, sessionRef: null },
      session: { signIn: async () => {}, signOut: async () => {} },
    });
    const ids = [fresh.id, late.id, done.id, lapsed.id];
    const summaries = await caller.onboarding.summaries({ ids });
    for (const s of summaries) {
      const detail = await caller.onboarding.dealer({ id: s.id });
      expect({ done: s.done, total: s.total, complete: s.complete }).toEqual({
        done: detail.steps.filter((x) => x.done).length,
        total: detail.steps.length,
        complete: detail.complete,
      });
      const call = detail.steps.find((x) => x.key === 'onboardingCall');
      const expired = detail.steps.some((x) => (x.key === 'insurance' || x.key === 'license') && x.expired);
      expect(s.overdue).toBe(Boolean(call && 'overdue' in call && call.overdue) || expired);
    }
    const byName = Object.fromEntries(summaries.map((s) => [s.fullName, s]));
    expect(byName['Done One']).toMatchObject({ complete: true, overdue: false });
    expect(byName['Late One']).toMatchObject({ complete: false, overdue: true, total: 5 });
    expect(byName['Lapsed One']).toMatchObject({ done: 4, overdue: true, expired: true });

    const incomplete = await h.app.inject({
      method: 'GET',
      url: '/api/admin/onboarding/dealers?filter=incomplete',
      headers: { cookie: reviewer },
    });
    expect(incomplete.statusCode).toBe(200);
    expect(
      incomplete
        .json()
        .items.map((i: { fullName: string }) => i.fullName)
        .sort(),
    ).toEqual(['Fresh One', 'Lapsed One', 'Late One']);
    const overdue = await caller.onboarding.dealers({ filter: 'overdue', page: 1 });
    expect(overdue.items.map((i) => i.fullName).sort()).toEqual(['Lapsed One', 'Late One']);
    const bad = await h.app.inject({
      method: 'GET',
      url: '/api/admin/onboarding/dealers?filter=late',
      headers: { cookie: reviewer },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/admin/onboarding/dealers?filter=overdue' })).statusCode,
    ).toBe(401);
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/api/admin/onboarding/dealers?filter=overdue',
          headers: { cookie: fresh.cookie },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('overdueBefore is the first instant whose approval is not yet overdue', () => {
    const t = today();
    const cut = overdueBefore(t);
    const before = new Date(cut.getTime() - 1);
    const due = (at: Date) => addBusinessDays(todayIn(CALL_TIME_ZONE, at), 5);
    expect(due(before) < t).toBe(true);
    expect(due(cut) >= t).toBe(true);
  });
});
