import { randomUUID } from 'node:crypto';
import { sql } from '@dn/db';
import { createTestDatabase, testDbKind } from '@dn/db/testing';
import { ADMIN_SEARCH_WINDOW } from '@dn/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowsOf,
  createDealer,
  createHarness,
  mailHarnessForFile,
  outboxOf,
  signInAdmin,
  signInDealer,
  totalReferralsOf,
  uniqueEmail,
} from './helpers';
import { application, createLink } from './site-fixtures';

const h = mailHarnessForFile();
let admin: string;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 admin-test';

beforeAll(async () => {
  admin = await signInAdmin(h.app, 'boss');
});

const post = (url: string, payload: object = {}) =>
  h.app.inject({ method: 'POST', url, payload, headers: { cookie: admin, 'user-agent': UA } });
const get = (url: string) => h.app.inject({ url, headers: { cookie: admin } });

const auditRows = (dealerId: string, eventType?: string) => auditRowsOf(h.db, dealerId, eventType);
const outbox = (dealerId: string, kind: string) => outboxOf(h.db, dealerId, kind);

describe('GET /api/admin/dealers', () => {
  it('answers the first page newest first with the total and counts per status', async () => {
    const tag = randomUUID().slice(0, 8);
    const a = await createDealer(h.db, { fullName: `Alpha ${tag}`, status: 'pending', tier: 'Preferred' });
    await new Promise((r) => setTimeout(r, 5));
    const b = await createDealer(h.db, { fullName: `Beta ${tag}`, companyName: `Roofs ${tag}`, status: 'approved' });
    const res = await get(`/api/admin/dealers?q=${tag}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(body.items.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    expect(body.counts).toMatchObject({ all: 2, pending: 1, approved: 1, rejected: 0 });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/i);

    const filtered = (await get(`/api/admin/dealers?q=${tag}&status=pending`)).json();
    expect(filtered.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
    expect(filtered.total).toBe(1);
    expect(filtered.counts.all).toBe(2);
    expect((await get(`/api/admin/dealers?q=${tag}&tier=Preferred`)).json().total).toBe(1);
    expect((await get(`/api/admin/dealers?q=ROOFS%20${tag}`)).json().items[0].id).toBe(b.id);
    const byName = (await get(`/api/admin/dealers?q=${tag}&sort=fullName&dir=asc&pageSize=1&page=2`)).json();
    expect(byName.items.map((i: { id: string }) => i.id)).toEqual([b.id]);
    expect(byName.total).toBe(2);
  });

  it('answers a search matching more than its window from the newest 1,000 matches, and says so', async () => {
    const tag = randomUUID().slice(0, 8);
    const n = ADMIN_SEARCH_WINDOW + 1;
    // Dealer i is i minutes old: the window is i = 1..1,000 (even i approved, odd pending).
    await sql`insert into dealers (email, full_name, tier, status, phone_e164, created_at, updated_at)
      select 'win' || i || '.' || ${tag} || '@window.test', 'Window ' || ${tag}, 'Affiliate',
        case when i % 2 = 0 then 'approved' else 'pending' end, '+15551234567', now() - i * interval '1 minute', now()
      from generate_series(1, ${n}::int) i`.execute(h.db);
    const body = (await get(`/api/admin/dealers?q=${tag}&status=approved&sort=email&dir=asc`)).json();
    expect(body).toMatchObject({ capped: true, total: 500, counts: { all: 1_000, approved: 500, pending: 500 } });
    // Sorted by email within the window, as the database's C collation orders them.
    const approved = Array.from({ length: 500 }, (_, k) => `win${2 * (k + 1)}.${tag}@window.test`).sort();
    expect(body.items.map((i: { email: string }) => i.email)).toEqual(approved.slice(0, 50));
    const last = (await get(`/api/admin/dealers?q=${tag}&status=approved&sort=email&dir=asc&page=10`)).json();
    expect(last.items.map((i: { email: string }) => i.email)).toEqual(approved.slice(450));
    expect((await get(`/api/admin/dealers?q=${tag}&status=approved&page=11`)).json().items).toEqual([]);
    // The oldest match is outside the window; a narrower search finds it.
    const oldest = (await get(`/api/admin/dealers?q=win${n}.${tag}`)).json();
    expect(oldest).toMatchObject({ capped: false, total: 1, counts: { all: 1, pending: 1 } });
    // As many matches as the window holds are not capped.
    await sql`delete from dealers where email = ${`win${n}.${tag}@window.test`}`.execute(h.db);
    expect((await get(`/api/admin/dealers?q=${tag}`)).json()).toMatchObject({ capped: false, total: 1_000 });
    // Without a search the counts are the kept counters': never capped.
    expect((await get('/api/admin/dealers')).json().capped).toBe(false);
  });

  it('matches search wildcards literally', async () => {
    const res = await get('/api/admin/dealers?q=%25%25%25_');
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(0);
  });

  it('answers the default page without parameters', async () => {
    const res = await get('/api/admin/dealers');
    expect(res.statusCode).toBe(200);
    expect(res.json().items.length).toBeGreaterThan(0);
  });

  it.each([
    ['status=bogus', 'Unknown status'],
    ['tier=Gold', 'Please choose a dealer tier'],
    ['pageSize=1000', undefined],
    ['page=0', undefined],
    ['sort=password', undefined],
    [`q=${'x'.repeat(201)}`, 'Search must be at most 200 characters'],
  ])('refuses %s with 400', async (qs, message) => {
    const res = await get(`/api/admin/dealers?${qs}`);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().message).toBe(message);
  });
});

/** The trigger-kept counters (migration 0303, sharded by 0800) summed over their shards equal a real count. */
async function expectCountersExact() {
  const real = await sql<{ status: string; tier: string; n: string }>`
    select status, tier, count(*) as n from dealers group by 1, 2 order by 1, 2`.execute(h.db);
  const kept = await sql<{ status: string; tier: string; n: string }>`
    select status, tier, sum(n) as n from dealer_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`.execute(h.db);
  expect(kept.rows.map((r) => ({ ...r, n: Number(r.n) }))).toEqual(real.rows.map((r) => ({ ...r, n: Number(r.n) })));
}

describe('dealer counters', () => {
  it('stay exact through inserts, updates, multi-row changes and deletes', async () => {
    const a = await createDealer(h.db, { status: 'pending', tier: 'Affiliate' });
    const b = await createDealer(h.db, { status: 'pending', tier: 'Preferred' });
    await h.db.updateTable('dealers').set({ status: 'active' }).where('id', 'in', [a.id, b.id]).execute();
    await h.db.updateTable('dealers').set({ fullName: 'Renamed' }).where('id', '=', a.id).execute();
    await h.db.updateTable('dealers').set({ tier: 'Authorized', status: 'suspended' }).where('id', '=', b.id).execute();
    await expectCountersExact();
    await h.db.deleteFrom('dealers').where('id', '=', a.id).execute();
    await expectCountersExact();
  });
});

describe('GET /api/admin/dealer-metrics', () => {
  it('counts dealers per tier, pending, approved and scheduled calls', async () => {
    const before = (await get('/api/admin/dealer-metrics')).json();
    await createDealer(h.db, { tier: 'Authorized', status: 'pending' });
    await h.db
      .insertInto('callSchedules')
      .values({
        name: 'Caller',
        email: uniqueEmail('caller'),
        phone: '5551234567',
        preferredDate: '2030-01-01',
        preferredTime: 'morning',
        updatedAt: new Date(),
      })
      .execute();
    const after = (await get('/api/admin/dealer-metrics')).json();
    expect(after.totalDealers).toBe(before.totalDealers + 1);
    expect(after.byTier.Authorized).toBe(before.byTier.Authorized + 1);
    expect(after.pendingApplications).toBe(before.pendingApplications + 1);
    expect(after.approvedDealers).toBe(before.approvedDealers);
    expect(after.scheduledCalls).toBe(before.scheduledCalls + 1);
  });
});

describe('approve', () => {
  it('approves, grants access, emails a set-password link and audits who did it', async () => {
    const d = await createDealer(h.db, { status: 'pending', password: null });
    const res = await post(`/api/admin/dealers/${d.id}/approve`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, alreadyApproved: false });
    const row = await h.db.selectFrom('dealers').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'approved', accessGranted: true, approvedBy: 'boss' });
    expect(row.approvalDate).toBeInstanceOf(Date);
    const [a] = await auditRows(d.id, 'dealer.approved');
    expect(a).toMatchObject({ category: 'admin', userAgent: UA, ipAddress: '127.0.0.1' });
    expect(a!.details).toMatchObject({ actor: 'boss', after: { status: 'approved' } });
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /approved/);
    expect(mail.text).toMatch(/\/login\?token=/);
  });

  it('is idempotent under concurrency: 20 parallel approvals, one audit row, one email', async () => {
    // PGlite serves every pooled connection from one session through its socket server, and
    // concurrent transactions over several connections get their messages mixed (500s, lost
    // sessions: reported to the lead). On PGlite the race runs over a one-connection pool;
    // on PostgreSQL it is a real race between 10 connections.
    const database = testDbKind() === 'pglite' ? await createTestDatabase('pglite', 1) : undefined;
    const r = database ? await createHarness({ database }) : h;
    try {
      const cookie = r === h ? admin : await signInAdmin(r.app, 'racer');
      const d = await createDealer(r.db, { status: 'pending', password: null });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          r.app.inject({ method: 'POST', url: `/api/admin/dealers/${d.id}/approve`, headers: { cookie } }),
        ),
      );
      expect(results.map((x) => x.statusCode)).toEqual(Array(20).fill(200));
      expect(results.filter((x) => x.json().alreadyApproved === false)).toHaveLength(1);
      expect(await auditRowsOf(r.db, d.id, 'dealer.approved')).toHaveLength(1);
      expect(await outboxOf(r.db, d.id, 'approval')).toHaveLength(1);
    } finally {
      if (database) {
        await r.close();
        await database.close();
      }
    }
  });

  it('answers 404 for an unknown dealer and 400 for a malformed id', async () => {
    expect((await post(`/api/admin/dealers/${randomUUID()}/approve`)).statusCode).toBe(404);
    const bad = await post('/api/admin/dealers/not-a-uuid/approve');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown dealer');
  });
});

describe('reject', () => {
  it('needs a reason and stores it trimmed; a signed-in dealer is signed out', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const cookie = await signInDealer(h.app, d.email);
    for (const payload of [{}, { reason: '   ' }]) {
      const bad = await post(`/api/admin/dealers/${d.id}/reject`, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Please give a reason for the rejection');
    }
    expect((await auditRows(d.id, 'dealer.rejected')).length).toBe(0);
    const res = await post(`/api/admin/dealers/${d.id}/reject`, { reason: '  No license  ' });
    expect(res.statusCode).toBe(200);
    const row = await h.db
      .selectFrom('dealers')
      .select(['status', 'rejectionReason'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'rejected', rejectionReason: 'No license' });
    expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    const [a] = await auditRows(d.id, 'dealer.rejected');
    expect(a!.details).toMatchObject({
      before: { status: 'approved' },
      after: { status: 'rejected' },
      reason: 'No license',
    });
  });
});

describe('status and tier', () => {
  it('sets any status; leaving approved ends the dealer sessions', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const cookie = await signInDealer(h.app, d.email);
    const bad = await post(`/api/admin/dealers/${d.id}/status`, { status: 'deleted' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown status');
    expect((await post(`/api/admin/dealers/${d.id}/status`, { status: 'active' })).statusCode).toBe(200);
    expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    expect((await post(`/api/admin/dealers/${d.id}/status`, { status: 'suspended' })).statusCode).toBe(200);
    expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    const rows = await auditRows(d.id, 'dealer.status_changed');
    expect(rows.map((r) => (r.details as { after: { status: string } }).after.status)).toEqual(['active', 'suspended']);
  });

  it('changes the tier and refuses an unknown one', async () => {
    const d = await createDealer(h.db, { tier: 'Affiliate' });
    const bad = await post(`/api/admin/dealers/${d.id}/upgrade-tier`, { tier: 'Gold' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please choose a dealer tier');
    expect((await post(`/api/admin/dealers/${d.id}/upgrade-tier`, { tier: 'Preferred' })).statusCode).toBe(200);
    const row = await h.db.selectFrom('dealers').select('tier').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.tier).toBe('Preferred');
    const [a] = await auditRows(d.id, 'dealer.tier_changed');
    expect(a!.details).toMatchObject({ before: { tier: 'Affiliate' }, after: { tier: 'Preferred' } });
  });
});

describe('access and emails', () => {
  it('grant access approves a pending dealer and sends one set-password email', async () => {
    const d = await createDealer(h.db, { status: 'pending', password: null });
    expect((await post(`/api/admin/dealers/${d.id}/grant-access`)).statusCode).toBe(200);
    const again = await post(`/api/admin/dealers/${d.id}/grant-access`);
    expect(again.json()).toMatchObject({ alreadyGranted: true });
    const row = await h.db
      .selectFrom('dealers')
      .select(['status', 'accessGranted'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'approved', accessGranted: true });
    expect(await outbox(d.id, 'approval')).toHaveLength(1);
    expect(await auditRows(d.id, 'dealer.access_granted')).toHaveLength(1);
  });

  it('send approval email: refused while pending, a fresh link once approved', async () => {
    const d = await createDealer(h.db, { status: 'pending', password: null });
    const refused = await post(`/api/admin/dealers/${d.id}/send-approval-email`);
    expect(refused.statusCode).toBe(409);
    expect(await outbox(d.id, 'approval')).toHaveLength(0);
    await h.db.updateTable('dealers').set({ status: 'approved' }).where('id', '=', d.id).execute();
    expect((await post(`/api/admin/dealers/${d.id}/send-approval-email`)).statusCode).toBe(200);
    await h.app.deps.mail.flush();
    await h.smtp.waitFor(d.email, /set up your password/);
    expect(await auditRows(d.id, 'dealer.approval_email_sent')).toHaveLength(1);
  });

  it('reset password emails a reset link; refused for a dealer without access', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    expect((await post(`/api/admin/dealers/${d.id}/reset-password`)).statusCode).toBe(200);
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /Reset your dealer account password/);
    expect(mail.text).toMatch(/\/login\?token=/);
    const p = await createDealer(h.db, { status: 'pending', password: null });
    expect((await post(`/api/admin/dealers/${p.id}/reset-password`)).statusCode).toBe(409);
  });
});

describe('link referral', () => {
  it('sets referredBy as manual and counts it for the recruiter link', async () => {
    const recruiter = await createDealer(h.db, { fullName: 'Rita Recruiter' });
    const code = randomUUID().slice(0, 8);
    await h.db
      .insertInto('affiliateLinks')
      .values({ recruiterId: `rita${code}`, dealerId: recruiter.id, affiliateCode: code, updatedAt: new Date() })
      .execute();
    const d = await createDealer(h.db, { status: 'pending' });
    const res = await post(`/api/admin/dealers/${d.id}/link-referral`, { referredBy: recruiter.id });
    expect(res.statusCode).toBe(200);
    const row = await h.db
      .selectFrom('dealers')
      .select(['referredBy', 'referralType'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ referredBy: recruiter.id, referralType: 'manual' });
    expect(await totalReferralsOf(h.db, { dealerId: recruiter.id })).toBe(1);
    const [a] = await auditRows(d.id, 'dealer.referral_linked');
    expect(a!.recruiterId).toBe(`rita${code}`);
    const list = (await get(`/api/admin/dealers?q=${encodeURIComponent(d.email)}`)).json();
    expect(list.items[0]).toMatchObject({ referredByName: 'Rita Recruiter', referralType: 'manual' });
  });

  it('refuses self links, unknown dealers and a missing choice', async () => {
    const d = await createDealer(h.db);
    const self = await post(`/api/admin/dealers/${d.id}/link-referral`, { referredBy: d.id });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('A dealer cannot be linked to themselves');
    const unknown = await post(`/api/admin/dealers/${d.id}/link-referral`, { referredBy: randomUUID() });
    expect(unknown.statusCode).toBe(400);
    const rejected = await createDealer(h.db, { status: 'rejected' });
    const notReferrer = await post(`/api/admin/dealers/${d.id}/link-referral`, { referredBy: rejected.id });
    expect(notReferrer.statusCode).toBe(400);
    expect(notReferrer.json().message).toBe('Only an approved or active dealer can be named as the referrer');
    const missing = await post(`/api/admin/dealers/${d.id}/link-referral`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please choose the referring dealer');
    const row = await h.db.selectFrom('dealers').select('referredBy').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.referredBy).toBeNull();
  });
});

describe('GET /api/admin/dealers/:id (the detail view, issue 36)', () => {
  it("answers every answer of a submitted application, the referrer's name and the link it came through", async () => {
    const rita = await createDealer(h.db, { fullName: 'Rita Recruiter', companyName: 'Rita Attic' });
    const recruiterId = `rita-${randomUUID().slice(0, 8)}`;
    await createLink(h.db, rita.id, recruiterId);
    const form = application('Preferred', {
      dealerAgreementUrl: 'https://example.com/agreement.pdf',
      logoUrl: 'https://example.com/logo.png',
      recruiterId,
    });
    const signup = await h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: form });
    expect(signup.statusCode).toBe(200);
    const { id } = (await h.db
      .selectFrom('dealers')
      .select('id')
      .where('email', '=', form.email)
      .executeTakeFirstOrThrow()) as { id: string };
    const res = await get(`/api/admin/dealers/${id}`);
    expect(res.statusCode).toBe(200);
    // Every answer as sent (the phone normalized), where it stands, and who referred it.
    const {
      phoneE164: _typed,
      referredBy: _none,
      recruiterId: _link,
      ...answers
    } = form as typeof form & {
      recruiterId: string;
    };
    expect(res.json()).toMatchObject({
      ...answers,
      id,
      status: 'pending',
      phoneE164: '+15125550142',
      referredBy: rita.id,
      referralType: 'automatic',
      referredByName: 'Rita Recruiter',
      referrerLinkId: recruiterId,
      ownRecruiterId: null,
      totalOrders: 0,
    });
    expect(Object.keys(answers)).toEqual(expect.arrayContaining(['insuranceCertUrl', 'homePerformance', 'logoUrl']));
    expect(res.body).not.toMatch(/password|argon2|uaHash|originalPayload/i);
    // Over tRPC, as the console asks.
    const trpc = await h.app.inject({
      url: `/trpc/admin.dealer?input=${encodeURIComponent(JSON.stringify({ id }))}`,
      headers: { cookie: admin },
    });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toMatchObject({ id, referredByName: 'Rita Recruiter' });
  });

  it('hides personal fields from a viewer, refuses a bad id (400), an unknown one (404), the signed out (401) and a dealer (403)', async () => {
    const d = await createDealer(h.db, { fullName: 'Vic Viewed' });
    const viewer = await signInAdmin(h.app, 'detail-viewer');
    await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'detail-viewer').execute();
    const seen = await h.app.inject({ url: `/api/admin/dealers/${d.id}`, headers: { cookie: viewer } });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: d.id, fullName: 'Vic Viewed', email: 'hidden', phoneE164: 'hidden' });
    expect(seen.body).not.toContain(d.email);

    const bad = await get('/api/admin/dealers/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown dealer');
    const unknown = await get(`/api/admin/dealers/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect((await h.app.inject({ url: `/api/admin/dealers/${d.id}` })).statusCode).toBe(401);
    const dealer = await signInDealer(h.app, d.email);
    expect((await h.app.inject({ url: `/api/admin/dealers/${d.id}`, headers: { cookie: dealer } })).statusCode).toBe(
      403,
    );
  });
});

describe('GET /api/admin/dealer-options (the Link Referral picker)', () => {
  it('offers approved and active dealers only as referrers, never a pending or rejected applicant', async () => {
    const tag = randomUUID().slice(0, 8);
    const statuses = ['pending', 'approved', 'rejected', 'active', 'inactive', 'suspended'] as const;
    for (const status of statuses) await createDealer(h.db, { fullName: `Opt ${tag} ${status}`, status });
    const res = await get(`/api/admin/dealer-options?q=${tag}&only=referrers`);
    expect(res.statusCode).toBe(200);
    const names = res.json().items.map((i: { fullName: string }) => i.fullName);
    expect(names).toEqual([`Opt ${tag} active`, `Opt ${tag} approved`]);
    // The commissions' recruiter filter still finds every dealer.
    expect((await get(`/api/admin/dealer-options?q=${tag}`)).json().items).toHaveLength(statuses.length);
    const bad = await get(`/api/admin/dealer-options?q=${tag}&only=everyone`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown choice of dealers');
  });
});

describe('timeline', () => {
  it("shows the dealer's audit rows, calls booked with the same email and emails sent", async () => {
    const d = await createDealer(h.db, { status: 'pending', password: null });
    await h.db
      .insertInto('callSchedules')
      .values({
        name: 'Same',
        email: d.email.toUpperCase(),
        phone: '5551234567',
        preferredDate: '2031-02-03',
        preferredTime: 'evening',
        updatedAt: new Date(),
      })
      .execute();
    await post(`/api/admin/dealers/${d.id}/approve`);
    await post(`/api/admin/dealers/${d.id}/upgrade-tier`, { tier: 'Authorized' });
    const res = await get(`/api/admin/dealers/${d.id}/timeline`);
    expect(res.statusCode).toBe(200);
    const types = res.json().entries.map((e: { eventType: string }) => e.eventType);
    expect(types).toEqual(
      expect.arrayContaining(['dealer.approved', 'dealer.tier_changed', 'call.scheduled', 'email.approval']),
    );
    expect((await get(`/api/admin/dealers/${randomUUID()}/timeline`)).statusCode).toBe(404);
  });
});

describe('clear all dealers', () => {
  it('refuses without { confirm: true } and keeps the count in the audit trail', async () => {
    for (const payload of [{}, { confirm: false }, { confirm: 'true' }]) {
      const bad = await post('/api/admin/clear-all-dealers', payload);
      expect(bad.statusCode).toBe(400);
    }
    const n = Number(
      (
        await h.db
          .selectFrom('dealers')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(n).toBeGreaterThan(0);
    const res = await post('/api/admin/clear-all-dealers', { confirm: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, removed: n });
    const left = await h.db.selectFrom('dealers').select('id').execute();
    expect(left).toHaveLength(0);
    await expectCountersExact();
    expect((await get('/api/admin/dealer-metrics')).json()).toMatchObject({ totalDealers: 0, pendingApplications: 0 });
    const a = await h.db
      .selectFrom('auditLogs')
      .selectAll()
      .where('eventType', '=', 'dealers.cleared')
      .executeTakeFirstOrThrow();
    expect(a.details).toMatchObject({ removed: n });
  });
});
