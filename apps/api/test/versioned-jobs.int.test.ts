import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { sha256 } from '../src/lib/tokens';
import { SWEEPS } from '../src/services/scheduler/sweeps';
import { createDealer, mailHarnessForFile, signInAdmin, signInDealer, uniqueEmail } from './helpers';
import { serviceAreaAt } from './jobs-fixtures';
import { VERSION_TAG, versionedPolls } from './versioned-fixtures';

// Issue 49 (decision 1180): the installer's offers poll and the dealer's job list answer 304 from
// the jobs version read with the session. A 304 must never confirm a stale list: every change to an
// offer or job the list shows (a new offer, accept, decline, expiry, withdrawal, a status change,
// the homeowner's answer, the installer's company) gives a new tag, on both databases.

const clock = new ShiftedClock();
const h = mailHarnessForFile({ clock });
const HOUR = 60 * 60 * 1000;
const OFFERS = '/api/dealer/job-offers';
const MINE = '/api/dealer/jobs';
const BATCH = `/trpc/account.info,jobs.offers,jobs.mine?batch=1&input=${encodeURIComponent('{}')}`;
const { poll, current } = versionedPolls(h);
const sweep = SWEEPS.find((s) => s.name === 'jobs.offer-expiry')!;

// Every installer passes the gate here (test/jobs-gate.int.test.ts tests the real one).
beforeAll(() =>
  sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(h.db),
);

async function dealer(tier: 'Affiliate' | 'Authorized' | 'Preferred', zip?: string) {
  const d = await createDealer(h.db, {
    tier,
    status: 'approved',
    companyName: `${tier} ${Math.random().toString(36).slice(2, 8)}`,
  });
  if (zip) await serviceAreaAt(h.db, d.id, zip, 30);
  return { ...d, cookie: await signInDealer(h.app, d.email) };
}

const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  h.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const job = (zipCode: string, state: string) => ({
  homeowner: { fullName: 'Hanna Homeowner', email: uniqueEmail('home'), phone: '512-555-0199' },
  street: '12 Elm St',
  city: 'Somewhere',
  state,
  zipCode,
  atticSqFt: 1800,
  fans: 2,
  amount: '1500.00',
});

const openOffer = (jobId: string) =>
  h.db.selectFrom('jobOffers').selectAll().where('jobId', '=', jobId).where('status', '=', 'open').executeTakeFirst();

type Seen = { tag: string; body: string };

/** Unchanged: 304, no body, the same tag. */
async function expectSame(url: string, cookie: string, seen: Seen) {
  const res = await poll(url, cookie, seen.tag);
  expect(res.statusCode, url).toBe(304);
  expect(res.body).toBe('');
  expect(res.headers.etag).toBe(seen.tag);
}

/** Changed: the old tag answers 200 with a new version tag (the body may or may not differ). */
async function expectMoved(url: string, cookie: string, seen: Seen): Promise<Seen> {
  const res = await poll(url, cookie, seen.tag);
  expect(res.statusCode, url).toBe(200);
  expect(res.headers.etag).toMatch(VERSION_TAG);
  expect(res.headers.etag, url).not.toBe(seen.tag);
  const now = { tag: res.headers.etag as string, body: res.body };
  await expectSame(url, cookie, now);
  return now;
}

let ownerCookie = '';
async function owner() {
  if (!ownerCookie) ownerCookie = await signInAdmin(h.app, `owner${Math.random().toString(36).slice(2, 8)}`);
  return ownerCookie;
}

describe('the offers poll and the job list answered from the jobs version', () => {
  it('every change to an offer or job either list shows moves it; nothing else does', async () => {
    const seller = await dealer('Affiliate');
    const first = await dealer('Preferred', '30305');
    const second = await dealer('Authorized', '30305');
    let firstOffers = await current(OFFERS, first.cookie);
    let secondOffers = await current(OFFERS, second.cookie);
    let sold = await current(MINE, seller.cookie);
    let secondJobs = await current(MINE, second.cookie);
    expect(firstOffers.tag).toMatch(VERSION_TAG);
    expect(sold.tag).toMatch(VERSION_TAG);
    await expectSame(OFFERS, first.cookie, firstOffers);
    await expectSame(MINE, seller.cookie, sold);
    // A tag is one dealer's: the same tag from another dealer is answered 200.
    expect((await poll(OFFERS, second.cookie, firstOffers.tag)).statusCode).toBe(200);

    // A new job, offered to the Preferred installer first.
    const created = await inject('POST', '/api/dealer/jobs', seller.cookie, job('30303', 'GA'));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    let offer = (await openOffer(id))!;
    expect(offer.dealerId).toBe(first.id);
    firstOffers = await expectMoved(OFFERS, first.cookie, firstOffers);
    expect(JSON.parse(firstOffers.body).items.map((o: { id: string }) => o.id)).toEqual([offer.id]);
    sold = await expectMoved(MINE, seller.cookie, sold);
    // Not the other installer's.
    await expectSame(OFFERS, second.cookie, secondOffers);

    // Declined: it passes on to the second installer.
    const declined = await inject('POST', `/api/dealer/job-offers/${offer.id}/decline`, first.cookie, {
      reason: 'Too far',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    firstOffers = await expectMoved(OFFERS, first.cookie, firstOffers);
    expect(JSON.parse(firstOffers.body).items).toEqual([]);
    secondOffers = await expectMoved(OFFERS, second.cookie, secondOffers);
    offer = (await openOffer(id))!;
    expect(offer.dealerId).toBe(second.id);
    // The seller's row names who holds the open offer and by when they answer (issue 47): the offer
    // passing on moves the seller's list, and so does the holder's new name (migration 4210).
    sold = await expectMoved(MINE, seller.cookie, sold);
    await h.db.updateTable('dealers').set({ companyName: 'Offer Holder Attics' }).where('id', '=', second.id).execute();
    sold = await expectMoved(MINE, seller.cookie, sold);
    expect(sold.body).toContain('Offer Holder Attics');

    // Accepted.
    expect((await inject('POST', `/api/dealer/job-offers/${offer.id}/accept`, second.cookie)).statusCode).toBe(200);
    secondOffers = await expectMoved(OFFERS, second.cookie, secondOffers);
    secondJobs = await expectMoved(MINE, second.cookie, secondJobs);
    sold = await expectMoved(MINE, seller.cookie, sold);
    await expectSame(OFFERS, first.cookie, firstOffers);

    // Status changes.
    const status = (payload: object) => inject('POST', `/api/dealer/jobs/${id}/status`, second.cookie, payload);
    expect((await status({ status: 'scheduled', scheduledFor: '2026-12-09' })).statusCode).toBe(200);
    secondJobs = await expectMoved(MINE, second.cookie, secondJobs);
    sold = await expectMoved(MINE, seller.cookie, sold);
    expect((await status({ status: 'installed', amount: '1450.00' })).statusCode).toBe(200);
    secondJobs = await expectMoved(MINE, second.cookie, secondJobs);
    sold = await expectMoved(MINE, seller.cookie, sold);

    // The homeowner's answer, from the status link.
    const token = `tok_${id.replaceAll('-', '')}`;
    await h.db
      .updateTable('jobs')
      .set({ statusTokenHash: sha256(token) })
      .where('id', '=', id)
      .execute();
    secondJobs = await expectMoved(MINE, second.cookie, secondJobs);
    sold = await expectMoved(MINE, seller.cookie, sold);
    const answered = await inject('POST', `/api/installation-status/${token}/confirm`, undefined, { confirmed: true });
    expect(answered.statusCode, answered.body).toBe(200);
    secondJobs = await expectMoved(MINE, second.cookie, secondJobs);
    sold = await expectMoved(MINE, seller.cookie, sold);

    // The installer's company and phone show in the seller's list; its other columns do not.
    await h.db.updateTable('dealers').set({ companyName: 'Renamed Attics' }).where('id', '=', second.id).execute();
    sold = await expectMoved(MINE, seller.cookie, sold);
    expect(sold.body).toContain('Renamed Attics');
    await h.db.updateTable('dealers').set({ crewCount: 7 }).where('id', '=', second.id).execute();
    await expectSame(MINE, seller.cookie, sold);
  });

  it('an offer past its deadline is no longer confirmed, and the sweep and a withdrawal move the version', async () => {
    const first = await dealer('Preferred', '80401');
    const second = await dealer('Authorized', '80401');
    let firstOffers = await current(OFFERS, first.cookie);
    let secondOffers = await current(OFFERS, second.cookie);
    const made = await inject('POST', '/api/admin/jobs', await owner(), job('80401', 'CO'));
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    expect((await openOffer(id))?.dealerId).toBe(first.id);
    firstOffers = await expectMoved(OFFERS, first.cookie, firstOffers);
    expect(JSON.parse(firstOffers.body).items).toHaveLength(1);

    // Past the deadline, before the sweep: the list no longer shows it, so the old tag is not confirmed.
    clock.advance(24 * HOUR + 60_000);
    const late = await poll(OFFERS, first.cookie, firstOffers.tag);
    expect(late.statusCode).toBe(200);
    expect(late.json().items).toEqual([]);
    expect((await poll(BATCH, first.cookie, firstOffers.tag)).statusCode).toBe(200);

    // The sweep expires it and offers the job to the second installer: both move.
    expect(await sweep.run(h.app.deps)).toBeGreaterThanOrEqual(1);
    const swept = await current(OFFERS, first.cookie);
    expect(swept.tag).toMatch(VERSION_TAG);
    expect(swept.tag).not.toBe(firstOffers.tag);
    expect(JSON.parse(swept.body).items).toEqual([]);
    await expectSame(OFFERS, first.cookie, swept);
    secondOffers = await expectMoved(OFFERS, second.cookie, secondOffers);
    expect(JSON.parse(secondOffers.body).items).toHaveLength(1);

    // An admin assigns the job to the first installer: the second's open offer is withdrawn.
    const assigned = await inject('POST', `/api/admin/jobs/${id}/assign`, await owner(), { dealerId: first.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    secondOffers = await expectMoved(OFFERS, second.cookie, secondOffers);
    expect(JSON.parse(secondOffers.body).items).toEqual([]);
    const statuses = await h.db.selectFrom('jobOffers').select('status').where('jobId', '=', id).execute();
    expect(statuses.map((s) => s.status).sort()).toContain('withdrawn');
  });

  it("the dashboard's batch (account.info, jobs.offers, jobs.mine) is 304 when unchanged, 200 after a new offer", async () => {
    const inst = await dealer('Preferred', '10001');
    const seen = await current(BATCH, inst.cookie);
    expect(seen.tag).toMatch(VERSION_TAG);
    await expectSame(BATCH, inst.cookie, seen);
    const made = await inject('POST', '/api/admin/jobs', await owner(), job('10001', 'NY'));
    expect(made.statusCode, made.body).toBe(201);
    const moved = await expectMoved(BATCH, inst.cookie, seen);
    expect(moved.body).toContain(made.json().id);
    // Access before any 304: without the session, the tag is worth nothing.
    expect((await poll(BATCH, undefined, moved.tag)).statusCode).toBe(401);
    expect((await poll(OFFERS, undefined, moved.tag)).statusCode).toBe(401);
  });
});
