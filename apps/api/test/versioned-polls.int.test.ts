import type { AnyProcedure } from '@trpc/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../src/routers';
import type { Meta } from '../src/trpc/init';
import { createDealer, harnessForFile, signInAdmin, signInDealer } from './helpers';
import { VERSION_TAG, versionedPolls } from './versioned-fixtures';

// The dealer dashboard's polls declare a version read with the session (decision 0790): a poll
// that holds it is answered 304 without the stats statement. A 304 must never confirm stale data:
// every change the stats show gives a new tag, the tag is the dealer's own, and access is checked
// before any 304.

const h = harnessForFile();
let admin: string;
beforeAll(async () => {
  admin = await signInAdmin(h.app);
});

const STATS = '/api/affiliate/stats';
const BATCH = `/trpc/account.info,account.affiliateStats?batch=1&input=${encodeURIComponent('{}')}`;
const { poll, current, expectChanged } = versionedPolls(h);

async function recruiter(fullName = 'Rae Recruiter') {
  const d = await createDealer(h.db, { fullName });
  return { ...d, cookie: await signInDealer(h.app, d.email, d.password) };
}

describe('Meta.version', () => {
  it('is declared by these queries only: a version sees the context, so one with input must cover every input', () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>);
    const versioned = procedures.filter(([, p]) => (p._def.meta as Meta | undefined)?.version);
    // A new entry here needs its own tests that every change to its answer moves its version
    // (jobs.mine and jobs.offers: versioned-jobs.int.test.ts).
    expect(versioned.map(([path]) => path).sort()).toEqual([
      'account.affiliateStats',
      'account.info',
      'admin.callSchedules',
      'admin.dealerMetrics',
      'admin.dealers',
      'jobs.mine',
      'jobs.offers',
    ]);
    for (const [path, p] of versioned) {
      expect(p._def.type, path).toBe('query');
      // admin.dealers: its version is the whole table's (decision 0791), whatever the input. The
      // admin console's are tested in versioned-admin-console.int.test.ts.
      expect(p._def.inputs, path).toHaveLength(path === 'admin.dealers' ? 1 : 0);
    }
  });
});

describe('GET /api/affiliate/stats answered from its version', () => {
  it('an unchanged poll is 304 with no body; each change the stats show answers 200 with a new tag', async () => {
    const r = await recruiter();
    let seen = await current(STATS, r.cookie);
    expect(seen.tag).toMatch(VERSION_TAG);
    const again = await poll(STATS, r.cookie, seen.tag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(seen.tag);
    expect(again.headers['cache-control']).toBe('private, no-cache');

    // Through the API: the dealer's link, an admin linking a referral, an admin changing its tier.
    const link = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      payload: { recruiterId: `rae${Date.now().toString(36)}` },
      headers: { cookie: r.cookie },
    });
    expect(link.statusCode).toBe(200);
    seen = await expectChanged(STATS, r.cookie, seen);
    const referral = await createDealer(h.db, { fullName: 'Ray Referral', status: 'pending' });
    expect((await poll(STATS, r.cookie, seen.tag)).statusCode).toBe(304);
    const linked = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${referral.id}/link-referral`,
      payload: { referredBy: r.id },
      headers: { cookie: admin },
    });
    expect(linked.statusCode).toBe(200);
    seen = await expectChanged(STATS, r.cookie, seen);
    expect(JSON.parse(seen.body).referrals[0]).toMatchObject({ fullName: 'Ray Referral', tier: 'Affiliate' });
    const upgraded = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${referral.id}/upgrade-tier`,
      payload: { tier: 'Preferred' },
      headers: { cookie: admin },
    });
    expect(upgraded.statusCode).toBe(200);
    seen = await expectChanged(STATS, r.cookie, seen);
    expect(JSON.parse(seen.body).referrals[0].tier).toBe('Preferred');

    // The referral's approval is not in the stats: still 304.
    await h.db.updateTable('dealers').set({ status: 'approved' }).where('id', '=', referral.id).execute();
    expect((await poll(STATS, r.cookie, seen.tag)).statusCode).toBe(304);

    // The recruiter's own name shows as each referral's referrer: it is read with the session.
    await h.db.updateTable('dealers').set({ fullName: 'Rae Renamed' }).where('id', '=', r.id).execute();
    seen = await expectChanged(STATS, r.cookie, seen);
    expect(JSON.parse(seen.body).referrals[0].referredByName).toBe('Rae Renamed');

    await h.db.deleteFrom('dealers').where('id', '=', referral.id).execute();
    seen = await expectChanged(STATS, r.cookie, seen);
    expect(JSON.parse(seen.body)).toMatchObject({ totalReferrals: 0, referrals: [] });
  });

  it("a tag is one dealer's: another dealer holding it gets their own stats", async () => {
    const a = await recruiter('Ann Same');
    const b = await recruiter('Ann Same');
    const tagA = (await current(STATS, a.cookie)).tag;
    const res = await poll(STATS, b.cookie, tagA);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(tagA);
  });

  it('access comes first: signed out, suspended or an admin, the tag gets 401 or 403, never 304', async () => {
    const r = await recruiter();
    const { tag } = await current(STATS, r.cookie);
    expect((await poll(STATS, undefined, tag)).statusCode).toBe(401);
    expect((await poll(STATS, admin, tag)).statusCode).toBe(403);
    expect((await poll(BATCH, admin, tag)).statusCode).toBe(403);
    await h.db.updateTable('dealers').set({ status: 'suspended' }).where('id', '=', r.id).execute();
    expect((await poll(STATS, r.cookie, tag)).statusCode).toBe(401);
  });

  it('any If-None-Match, however malformed, is a 200 or a 304', async () => {
    const r = await recruiter();
    for (const header of ['', '*', 'W/', '"', 'W/"v-', `${'x'.repeat(4000)}`, 'W/"a", , ,W/"b"']) {
      const res = await poll(STATS, r.cookie, header);
      expect([200, 304], header).toContain(res.statusCode);
    }
  });
});

describe('the dashboard batch (account.info, account.affiliateStats) over tRPC', () => {
  it('is 304 when both are unchanged, and 200 when either changes', async () => {
    const r = await recruiter();
    let seen = await current(BATCH, r.cookie);
    expect(seen.tag).toMatch(VERSION_TAG);
    const again = await poll(BATCH, r.cookie, seen.tag);
    expect(again.statusCode).toBe(304);
    expect(again.headers.vary).toBe('trpc-accept, accept');
    // The REST poll's tag is another URL's: it does not answer the batch.
    const rest = await current(STATS, r.cookie);
    expect((await poll(BATCH, r.cookie, rest.tag)).statusCode).toBe(200);

    await h.db.updateTable('dealers').set({ companyName: 'New Co' }).where('id', '=', r.id).execute();
    seen = await expectChanged(BATCH, r.cookie, seen);
    expect(JSON.parse(seen.body)[0].result.data.companyName).toBe('New Co');
    await createDealer(h.db, { referredBy: r.id, fullName: 'Batch Referral' });
    seen = await expectChanged(BATCH, r.cookie, seen);
    expect(JSON.parse(seen.body)[1].result.data.referrals[0].fullName).toBe('Batch Referral');
  });

  it('a batch with a query that declares no version keeps the tag of its bytes', async () => {
    const r = await recruiter();
    const res = await poll('/trpc/auth.me,account.affiliateStats?batch=1', r.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^W\/"[\w-]{22}"$/);
  });
});

describe('under concurrent changes', () => {
  it('a 304 only ever confirms what is current, whatever polls ran while referrals signed up', async () => {
    const r = await recruiter();
    const seen: { tag: string; body: string }[] = [];
    const polls = Array.from({ length: 40 }, async () => {
      const res = await poll(STATS, r.cookie);
      expect(res.statusCode).toBe(200);
      seen.push({ tag: res.headers.etag as string, body: res.body });
    });
    const signups = Array.from({ length: 8 }, (_, i) =>
      h.db.transaction().execute((trx) =>
        trx
          .insertInto('dealers')
          .values({
            tier: 'Affiliate',
            fullName: `Storm ${i}`,
            email: `storm${i}.${Date.now().toString(36)}@example.com`,
            phoneE164: '+15551234567',
            referredBy: r.id,
            referralType: 'automatic',
            updatedAt: new Date(),
          })
          .execute(),
      ),
    );
    await Promise.all([...polls, ...signups]);
    const now = await current(STATS, r.cookie);
    expect(JSON.parse(now.body).totalReferrals).toBe(8);
    for (const s of seen) {
      const res = await poll(STATS, r.cookie, s.tag);
      if (res.statusCode === 304) expect(s.body).toBe(now.body);
      else expect(res.statusCode).toBe(200);
    }
  });
});
