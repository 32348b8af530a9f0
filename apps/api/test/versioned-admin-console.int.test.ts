import { beforeAll, describe, expect, it } from 'vitest';
import { createDealer, harnessForFile, signInAdmin, signInDealer } from './helpers';
import { VERSION_TAG, versionedPolls } from './versioned-fixtures';

// The admin console's polls declare versions read with the session (decision 0791): a poll that
// holds its tag is answered 304 without its queries. The dealer table's version is the whole
// table's (every dealer and link), so whatever the search, filter, sort or page, a 304 must never
// confirm a page that changed; the summary cards' is the dealers' and the calls'; the call
// requests' the calls'. Access is checked before any 304.

const h = harnessForFile();
let admin: string;
beforeAll(async () => {
  admin = await signInAdmin(h.app);
});

const TABLE = '/api/admin/dealers';
const SEARCH = '/api/admin/dealers?q=table&status=pending&sort=fullName&dir=asc&page=1&pageSize=10';
const trpc = (input: unknown) => `/trpc/admin.dealers?input=${encodeURIComponent(JSON.stringify(input))}`;
const { poll, current, expectChanged } = versionedPolls(h);

async function expectUnchanged(url: string, seen: { tag: string }) {
  expect(seen.tag).toMatch(VERSION_TAG);
  const res = await poll(url, admin, seen.tag);
  expect(res.statusCode).toBe(304);
  expect(res.body).toBe('');
}

describe('GET /api/admin/dealers answered from its version', () => {
  it('an unchanged page is 304 with no body; a change made through the API answers 200 with a new tag', async () => {
    const dealer = await createDealer(h.db, { fullName: 'Tabitha Table', status: 'pending' });
    let page = await current(TABLE, admin);
    let search = await current(SEARCH, admin);
    expect(search.tag).not.toBe(page.tag);
    expect(JSON.parse(search.body).items.map((d: { id: string }) => d.id)).toEqual([dealer.id]);
    await expectUnchanged(TABLE, page);
    await expectUnchanged(SEARCH, search);
    // A tag is one URL's: the search's tag does not answer the default page.
    expect((await poll(TABLE, admin, search.tag)).statusCode).toBe(200);

    const upgraded = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${dealer.id}/upgrade-tier`,
      payload: { tier: 'Preferred' },
      headers: { cookie: admin },
    });
    expect(upgraded.statusCode).toBe(200);
    page = await expectChanged(TABLE, admin, page);
    search = await expectChanged(SEARCH, admin, search);
    expect(JSON.parse(search.body).items[0].tier).toBe('Preferred');

    // The counts move with a status change (the search's tab loses the dealer).
    const status = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${dealer.id}/status`,
      payload: { status: 'approved' },
      headers: { cookie: admin },
    });
    expect(status.statusCode).toBe(200);
    page = await expectChanged(TABLE, admin, page);
    search = await expectChanged(SEARCH, admin, search);
    expect(JSON.parse(search.body)).toMatchObject({ items: [], total: 0, counts: { pending: 0, approved: 1 } });

    // Signing in and creating a link: the table shows each dealer's own link.
    const signedIn = await signInDealer(h.app, dealer.email, dealer.password);
    await expectUnchanged(TABLE, page);
    const link = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      payload: { recruiterId: `tab${Date.now().toString(36)}` },
      headers: { cookie: signedIn },
    });
    expect(link.statusCode).toBe(200);
    page = await expectChanged(TABLE, admin, page);
    // The link's counters are not in the table: still 304.
    await h.db.updateTable('affiliateLinks').set({ totalReferrals: 7 }).where('dealerId', '=', dealer.id).execute();
    await expectUnchanged(TABLE, page);

    // A new applicant, a rename, a deletion.
    const other = await createDealer(h.db, { fullName: 'Tobias Table', status: 'pending' });
    page = await expectChanged(TABLE, admin, page);
    await h.db.updateTable('dealers').set({ fullName: 'Toby Table' }).where('id', '=', other.id).execute();
    page = await expectChanged(TABLE, admin, page);
    await h.db.deleteFrom('dealers').where('id', '=', other.id).execute();
    page = await expectChanged(TABLE, admin, page);
    await expectUnchanged(TABLE, page);
  });

  it('the tRPC GET the console sends is answered the same way', async () => {
    const url = trpc({ page: 1, pageSize: 25, sort: 'createdAt', dir: 'desc' });
    let seen = await current(url, admin);
    const again = await poll(url, admin, seen.tag);
    expect(again.statusCode).toBe(304);
    expect(again.headers.vary).toBe('trpc-accept, accept');
    await createDealer(h.db, { fullName: 'Trpc Table', status: 'pending' });
    seen = await expectChanged(url, admin, seen);
    expect(JSON.parse(seen.body).result.data.items[0].fullName).toBe('Trpc Table');
  });

  it("a tag is one admin's, and a changed role never confirms a page read under the old one", async () => {
    const other = await signInAdmin(h.app, 'table-viewer');
    const mine = await current(TABLE, admin);
    expect((await poll(TABLE, other, mine.tag)).statusCode).toBe(200);
    const theirs = await current(TABLE, other);
    await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'table-viewer').execute();
    expect((await poll(TABLE, other, theirs.tag)).statusCode).toBe(200);
  });

  it('access comes first: signed out or a dealer, the tag gets 401 or 403, never 304', async () => {
    const { tag } = await current(TABLE, admin);
    expect((await poll(TABLE, undefined, tag)).statusCode).toBe(401);
    const d = await createDealer(h.db);
    const dealer = await signInDealer(h.app, d.email, d.password);
    expect((await poll(TABLE, dealer, tag)).statusCode).toBe(403);
    expect((await poll(trpc({}), dealer, tag)).statusCode).toBe(403);
  });

  it('bad input is still refused with 400, whatever tag it holds', async () => {
    const { tag } = await current(TABLE, admin);
    for (const url of ['/api/admin/dealers?pageSize=100000', '/api/admin/dealers?sort=password', trpc({ page: -1 })]) {
      const res = await poll(url, admin, tag);
      expect(res.statusCode, url).toBe(400);
    }
  });
});

const METRICS = '/api/admin/dealer-metrics';
const CALLS = '/api/call-schedules';
const CONSOLE = `/trpc/admin.dealerMetrics,admin.dealers?batch=1&input=${encodeURIComponent(
  JSON.stringify({ 1: { page: 1, pageSize: 25, sort: 'createdAt', dir: 'desc' } }),
)}`;

describe('the summary cards and the call requests', () => {
  it('each answers 304 until what it is read from changes', async () => {
    let metrics = await current(METRICS, admin);
    let calls = await current(CALLS, admin);
    let table = await current(TABLE, admin);
    await expectUnchanged(METRICS, metrics);
    await expectUnchanged(CALLS, calls);

    // A call booked on the public site: the cards and the calls change, the dealer table does not.
    const booked = await h.app.inject({
      method: 'POST',
      url: '/api/schedule-call',
      payload: {
        name: 'Carla Console',
        email: `carla.${Date.now().toString(36)}@example.com`,
        phone: '512-555-0100',
        preferredDate: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
        preferredTime: 'afternoon',
      },
    });
    expect(booked.statusCode).toBe(200);
    metrics = await expectChanged(METRICS, admin, metrics);
    calls = await expectChanged(CALLS, admin, calls);
    await expectUnchanged(TABLE, table);
    const id = JSON.parse(calls.body).find((c: { name: string }) => c.name === 'Carla Console').id as string;

    // Its status changed by an admin: the calls and the cards' scheduled count.
    const done = await h.app.inject({
      method: 'POST',
      url: `/api/admin/call-schedules/${id}/status`,
      payload: { status: 'completed' },
      headers: { cookie: admin },
    });
    expect(done.statusCode).toBe(200);
    calls = await expectChanged(CALLS, admin, calls);
    metrics = await expectChanged(METRICS, admin, metrics);

    // A new applicant: the cards and the table change, the calls do not.
    await createDealer(h.db, { fullName: 'Cora Console', status: 'pending' });
    metrics = await expectChanged(METRICS, admin, metrics);
    table = await expectChanged(TABLE, admin, table);
    await expectUnchanged(CALLS, calls);
    expect(JSON.parse(metrics.body).pendingApplications).toBeGreaterThan(0);
  });

  it('the console batch the browser sends (cards and table) is 304 when both are unchanged', async () => {
    let seen = await current(CONSOLE, admin);
    await expectUnchanged(CONSOLE, seen);
    await createDealer(h.db, { fullName: 'Batch Console', status: 'pending' });
    seen = await expectChanged(CONSOLE, admin, seen);
    expect(JSON.parse(seen.body)[1].result.data.items[0].fullName).toBe('Batch Console');
    await expectUnchanged(CONSOLE, seen);
  });

  it('access comes first: signed out or a dealer, the tag gets 401 or 403, never 304', async () => {
    const d = await createDealer(h.db);
    const dealer = await signInDealer(h.app, d.email, d.password);
    for (const url of [METRICS, CALLS, CONSOLE]) {
      const { tag } = await current(url, admin);
      expect((await poll(url, undefined, tag)).statusCode, url).toBe(401);
      expect((await poll(url, dealer, tag)).statusCode, url).toBe(403);
    }
  });
});

describe('under concurrent changes', () => {
  it('a 304 only ever confirms what is current, whatever polls ran while dealers signed up and changed', async () => {
    const seen: { tag: string; body: string }[] = [];
    const polls = Array.from({ length: 40 }, async () => {
      const res = await poll(TABLE, admin);
      expect(res.statusCode).toBe(200);
      seen.push({ tag: res.headers.etag as string, body: res.body });
    });
    const stamp = Date.now().toString(36);
    const signups = Array.from({ length: 8 }, (_, i) =>
      h.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('dealers')
          .values({
            tier: 'Affiliate',
            fullName: `Storm ${i}`,
            email: `storm${i}.${stamp}@example.com`,
            phoneE164: '+15551234567',
            updatedAt: new Date(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('dealers')
          .set({ status: 'approved', updatedAt: new Date() })
          .where('id', '=', row.id)
          .execute();
      }),
    );
    await Promise.all([...polls, ...signups]);
    const now = await current(TABLE, admin);
    expect(
      JSON.parse(now.body).items.filter((d: { email: string }) => d.email.endsWith(`${stamp}@example.com`)),
    ).toHaveLength(8);
    for (const s of seen) {
      const res = await poll(TABLE, admin, s.tag);
      if (res.statusCode === 304) expect(s.body).toBe(now.body);
      else expect(res.statusCode).toBe(200);
    }
  });
});
