import { beforeAll, describe, expect, it } from 'vitest';
import { sendDailyDigest } from '../src/services/review/digest';
import { createDealer, type Harness, signInAdmin, signInDealer } from './helpers';
import { twoInstancesForFile } from './instances';
import { application } from './site-fixtures';

/**
 * Issue 38: the review promise in business days (the queue, decisionExpectedBy), the business time
 * zone setting, and the 08:00 digest sent once across two instances (two apps on one database).
 */
const t = twoInstancesForFile();
const setNow = (iso: string) => t.setNow(iso);
let owner: string;
let viewer: string;
let reviewer: string;
let dealer: string;

async function adminWith(h: Harness, role: 'owner' | 'reviewer' | 'viewer', email: string | null = null) {
  const username = `${role}-${Math.random().toString(36).slice(2, 8)}`;
  const cookie = await signInAdmin(h.app, username);
  await h.db.updateTable('admins').set({ role, email }).where('username', '=', username).execute();
  return cookie;
}
async function pending(h: Harness, fullName: string, createdAt: string) {
  const d = await createDealer(h.db, { status: 'pending', fullName, companyName: `${fullName} Co` });
  await h.db
    .updateTable('dealers')
    .set({ createdAt: new Date(createdAt) })
    .where('id', '=', d.id)
    .execute();
  return d;
}
const get = (url: string, cookie?: string) =>
  t.a.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const putZone = (payload: unknown, cookie?: string) =>
  t.a.app.inject({
    method: 'PUT',
    url: '/api/admin/settings/business',
    payload: payload as object,
    ...(cookie ? { headers: { cookie } } : {}),
  });

beforeAll(async () => {
  owner = await adminWith(t.a, 'owner', 'owner@example.com');
  reviewer = await adminWith(t.a, 'reviewer', 'reviewer@example.com');
  viewer = await adminWith(t.a, 'viewer', 'viewer@example.com');
  await adminWith(t.a, 'owner'); // no address: no digest
  const d = await createDealer(t.a.db, { status: 'approved' });
  dealer = await signInDealer(t.a.app, d.email);
});

describe('the review queue', () => {
  it('lists pending applications oldest first with their age in business days; over 3 is overdue', async () => {
    // Thursday 2026-12-10, 10:00 in New York.
    setNow('2026-12-10T15:00:00Z');
    await pending(t.a, 'Fri Applicant', '2026-12-04T15:00:00Z'); // 4 business days: overdue
    await pending(t.a, 'Mon Applicant', '2026-12-07T15:00:00Z'); // 3: due today
    await pending(t.a, 'Today Applicant', '2026-12-10T14:00:00Z'); // 0
    // Monday 04:30 UTC is Sunday evening in New York: 4 business days there, overdue.
    await pending(t.a, 'Sun Applicant', '2026-12-07T04:30:00Z');
    const res = await get('/api/admin/applications/review-queue', viewer);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ timeZone: 'America/New_York', today: '2026-12-10', pending: 4, overdue: 2 });
    expect(
      body.items.map((i: { fullName: string; ageBusinessDays: number; overdue: boolean }) => [
        i.fullName,
        i.ageBusinessDays,
        i.overdue,
      ]),
    ).toEqual([
      ['Fri Applicant', 4, true],
      ['Sun Applicant', 4, true],
      ['Mon Applicant', 3, false],
      ['Today Applicant', 0, false],
    ]);
    expect(body.items[0].decisionExpectedBy).toBe('2026-12-09');
    const overdue = (await get('/api/admin/applications/review-queue?overdue=true', viewer)).json();
    expect(overdue.items.map((i: { fullName: string }) => i.fullName)).toEqual(['Fri Applicant', 'Sun Applicant']);
  });

  it('refuses a bad filter, a visitor and a dealer', async () => {
    const bad = await get('/api/admin/applications/review-queue?overdue=maybe', viewer);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('overdue');
    expect((await get('/api/admin/applications/review-queue')).statusCode).toBe(401);
    expect((await get('/api/admin/applications/review-queue', dealer)).statusCode).toBe(403);
  });
});

describe('the business time zone', () => {
  it('is America/New_York until an owner sets another; bad zones and non-owners are refused, nothing stored', async () => {
    expect((await get('/api/admin/settings/business', viewer)).json()).toEqual({ timeZone: 'America/New_York' });
    const bad = await putZone({ timeZone: 'Mars/Olympus_Mons' }, owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('timeZone');
    expect((await putZone({}, owner)).statusCode).toBe(400);
    expect((await putZone({ timeZone: 'Asia/Tokyo' }, reviewer)).statusCode).toBe(403);
    expect((await putZone({ timeZone: 'Asia/Tokyo' })).statusCode).toBe(401);
    expect((await get('/api/admin/settings/business')).statusCode).toBe(401);
    expect((await get('/api/admin/settings/business', viewer)).json()).toEqual({ timeZone: 'America/New_York' });
    expect(await t.a.db.selectFrom('appSettings').selectAll().execute()).toEqual([]);
  });

  it("moves the applicant's decisionExpectedBy (holidays skipped) when an owner changes it", async () => {
    const body = application('Affiliate');
    const res = await t.a.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: body });
    expect(res.statusCode).toBe(200);
    const mail = await t.a.db
      .selectFrom('emailOutbox')
      .select('textBody')
      .where('toAddress', '=', body.email)
      .where('kind', '=', 'application_received')
      .executeTakeFirstOrThrow();
    const token = /\/application\/([A-Za-z0-9_-]{43})/.exec(mail.textBody)![1]!;
    // Thanksgiving eve, 22:00 in New York (03:00 UTC on Thursday the 26th).
    await t.a.db
      .updateTable('dealers')
      .set({ createdAt: new Date('2026-11-26T03:00:00Z') })
      .where('email', '=', body.email)
      .execute();
    // The 25th in New York: Thursday the 26th is Thanksgiving, so Fri 27, Mon 30, Tue Dec 1.
    expect((await get(`/api/application-status/${token}`)).json()).toMatchObject({ decisionExpectedBy: '2026-12-01' });
    const set = await putZone({ timeZone: 'Asia/Tokyo' }, owner);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ timeZone: 'Asia/Tokyo' });
    // Noon on Thanksgiving in Tokyo: Fri 27, Mon 30, Tue Dec 1 still... counted from the 26th.
    expect((await get(`/api/application-status/${token}`)).json()).toMatchObject({ decisionExpectedBy: '2026-12-01' });
    await t.a.db
      .updateTable('dealers')
      .set({ createdAt: new Date('2026-11-27T03:00:00Z') })
      .where('email', '=', body.email)
      .execute();
    // 03:00 UTC on the 27th: still the 26th in New York, but Friday the 27th in Tokyo: Mon 30, Tue 1, Wed 2.
    expect((await get(`/api/application-status/${token}`)).json()).toMatchObject({ decisionExpectedBy: '2026-12-02' });
    const audit = await t.a.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('eventType', '=', 'settings.business_updated')
      .execute();
    expect(audit).toHaveLength(1);
    await putZone({ timeZone: 'America/New_York' }, owner);
    expect((await get(`/api/application-status/${token}`)).json()).toMatchObject({ decisionExpectedBy: '2026-12-01' });
  });
});

describe('the daily digest', () => {
  const digests = () =>
    t.a.db
      .selectFrom('emailOutbox')
      .select(['toAddress', 'textBody', 'subject'])
      .where('kind', '=', 'review_digest')
      .execute();

  it('goes out at 08:00 business time, once across two instances, to reviewers and owners with an address', async () => {
    setNow('2026-12-10T12:59:00Z'); // 07:59 in New York
    expect(await sendDailyDigest(t.a.app.deps)).toBe(0);
    setNow('2026-12-10T13:01:00Z'); // 08:01
    const [x, y] = await Promise.all([sendDailyDigest(t.a.app.deps), sendDailyDigest(t.b.app.deps)]);
    expect(x + y).toBe(2);
    expect(await sendDailyDigest(t.b.app.deps)).toBe(0);
    const sent = await digests();
    expect(sent.map((m) => m.toAddress).sort()).toEqual(['owner@example.com', 'reviewer@example.com']);
    // The four of the queue's test and the applicant of Thanksgiving eve (overdue too).
    expect(sent[0]!.subject).toBe('Daily digest for Thursday, December 10, 2026: 3 overdue');
    expect(sent[0]!.textBody).toContain('5 applications wait for review; 3 are overdue');
    expect(sent[0]!.textBody).toContain(
      'Jane Applicant (Attic Pros LLC), Affiliate: 10 business days, expected by 2026-12-01',
    );
    expect(sent[0]!.textBody).toMatch(
      /Fri Applicant \(Fri Applicant Co\), Affiliate: 4 business days, expected by 2026-12-09/,
    );
    expect(sent[0]!.textBody).not.toContain('Mon Applicant');
    // The next day's goes out the next morning.
    setNow('2026-12-11T13:30:00Z');
    expect(await sendDailyDigest(t.a.app.deps)).toBe(2);
    expect(await digests()).toHaveLength(4);
  });
});
