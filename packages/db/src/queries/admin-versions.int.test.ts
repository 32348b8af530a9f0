import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { listCallSchedules } from './call-schedules';
import { countDealersByStatus, dealerMetrics } from './dealer-counts';
import { type DealerListFilter, listDealersPage } from './dealers';
import { readSessionWithUser } from './sessions';

// The admin console's versions (migration 0960, decision 0791) let its polls answer 304 without
// their queries: the dealer table (whatever the search, filter, sort or page), the summary cards
// and the call requests. A change they miss would show an admin stale figures with nothing to
// report it, so: through any sequence of changes to the dealers, their links and the calls,
// whenever a poll's answer changes, a version it is read from grows (and none ever goes back). And
// the links' counters, which no poll shows, leave them alone.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

async function version(source: 'dealers' | 'calls' = 'dealers'): Promise<bigint> {
  const r = await sql<{ n: string }>`
    select coalesce(sum(n), 0)::text as n from admin_versions where source = ${source}`.execute(t.db);
  return BigInt(r.rows[0]!.n);
}

const base: DealerListFilter = { sort: 'createdAt', dir: 'desc', page: 1, pageSize: 50 };
/** The search window of the admin's table (ADMIN_SEARCH_WINDOW in @dn/schema, decision 0792). */
const WINDOW = 1_000;
/** The default page (a named view), a search, a tier and status filter sorted by name, a later page. */
const VIEWS: DealerListFilter[] = [
  base,
  { ...base, q: 'list' },
  { ...base, tier: 'Preferred', status: 'approved', sort: 'fullName', dir: 'asc' },
  { ...base, pageSize: 3, page: 2, sort: 'email', dir: 'asc' },
];

/** What each poll answers, and the versions. */
async function observe() {
  const views = await Promise.all(
    VIEWS.map(async (f) =>
      JSON.stringify([await listDealersPage(t.db, f, WINDOW), await countDealersByStatus(t.db, f, WINDOW)]),
    ),
  );
  return {
    views,
    calls: JSON.stringify(await listCallSchedules(t.db)),
    ...(await dealerMetrics(t.db).then(({ scheduledCalls, ...rest }) => ({
      metricsCalls: scheduledCalls,
      metricsDealers: JSON.stringify(rest),
    }))),
    dealers: await version('dealers'),
    callsVersion: await version('calls'),
  };
}

let seq = 0;
async function addCall(): Promise<string> {
  seq++;
  const r = await sql<{ id: string }>`
    insert into call_schedules (name, email, phone, preferred_date, preferred_time, updated_at)
    values (${`Caller ${seq}`}, ${`c${seq}@list.test`}, '+15555550100', '2026-12-01', 'morning', now())
    returning id`.execute(t.db);
  return r.rows[0]!.id;
}

async function addDealer(): Promise<string> {
  seq++;
  const r = await sql<{ id: string }>`
    insert into dealers (tier, full_name, email, phone_e164, updated_at)
    values ('Affiliate', ${`List Dealer ${seq}`}, ${`d${seq}@list.test`}, '+15555550100', now())
    returning id`.execute(t.db);
  return r.rows[0]!.id;
}

describe(`the admin console's versions kept by triggers on ${process.env.TEST_DB}`, () => {
  it('stays put for the links’ counters, and moves for a no-op update of a dealer', async () => {
    const d = await addDealer();
    await sql`insert into affiliate_links (recruiter_id, dealer_id, affiliate_code) values ('lst', ${d}, 'LSTCODE')`.execute(
      t.db,
    );
    const before = await version();
    await sql`update affiliate_links set total_referrals = total_referrals + 1, is_active = false, updated_at = now()
      where dealer_id = ${d}`.execute(t.db);
    await sql`update dealers set full_name = full_name where id = ${'00000000-0000-0000-0000-000000000000'}`.execute(
      t.db,
    );
    expect(await version()).toBe(before);
    // Every statement that touches a dealer counts, even one that changes nothing the table shows:
    // the price of having no list of columns to keep up to date.
    await sql`update dealers set full_name = full_name where id = ${d}`.execute(t.db);
    expect(await version()).toBeGreaterThan(before);
  });

  it('is read with the session of an admin, not of a dealer', async () => {
    const d = await addDealer();
    await sql`update dealers set status = 'approved' where id = ${d}`.execute(t.db);
    const a = await sql<{ id: string }>`
      insert into admins (username, password_hash, full_name, updated_at) values ('list-admin', 'x', 'List Admin', now()) returning id`.execute(
      t.db,
    );
    await sql`insert into sessions (sid, sess, expire) values
      ('list-admin-sid', ${JSON.stringify({ userId: a.rows[0]!.id, role: 'admin' })}::jsonb, now() + interval '1 hour'),
      ('list-dealer-sid', ${JSON.stringify({ userId: d, role: 'dealer' })}::jsonb, now() + interval '1 hour')`.execute(
      t.db,
    );
    const admin = await readSessionWithUser(t.db, 'list-admin-sid', ['approved']);
    expect(admin?.admin?.username).toBe('list-admin');
    expect(admin?.adminVersions).toEqual({
      dealers: String(await version('dealers')),
      calls: String(await version('calls')),
    });
    const dealer = await readSessionWithUser(t.db, 'list-dealer-sid', ['approved']);
    expect(dealer?.dealer?.id).toBe(d);
    expect(dealer?.adminVersions).toBeNull();
  });

  it('whatever the sequence of changes, a table that changes comes with a new version', async () => {
    type Column = 'full_name' | 'company_name' | 'email' | 'tier' | 'status' | 'referred_by' | 'access_granted';
    type Op =
      | { op: 'insert' }
      | { op: 'update'; i: number; column: Column; pick: number }
      | { op: 'updateAll'; tier: 'Affiliate' | 'Authorized' | 'Preferred' }
      | { op: 'delete'; i: number }
      | { op: 'link'; i: number }
      | { op: 'unlink'; i: number }
      | { op: 'renameLink'; i: number; pick: number }
      | { op: 'countLink'; i: number }
      | { op: 'book' }
      | { op: 'callStatus'; i: number; status: 'scheduled' | 'completed' | 'cancelled' }
      | { op: 'callDate'; i: number; pick: number }
      | { op: 'deleteCall'; i: number };
    const ops = fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('insert' as const) }),
        fc.record({
          op: fc.constant('update' as const),
          i: fc.nat(),
          column: fc.constantFrom<Column>(
            'full_name',
            'company_name',
            'email',
            'tier',
            'status',
            'referred_by',
            'access_granted',
          ),
          pick: fc.nat({ max: 3 }),
        }),
        fc.record({
          op: fc.constant('updateAll' as const),
          tier: fc.constantFrom('Affiliate' as const, 'Authorized' as const, 'Preferred' as const),
        }),
        fc.record({ op: fc.constant('delete' as const), i: fc.nat() }),
        fc.record({ op: fc.constant('link' as const), i: fc.nat() }),
        fc.record({ op: fc.constant('unlink' as const), i: fc.nat() }),
        fc.record({ op: fc.constant('renameLink' as const), i: fc.nat(), pick: fc.nat({ max: 3 }) }),
        fc.record({ op: fc.constant('countLink' as const), i: fc.nat() }),
        fc.record({ op: fc.constant('book' as const) }),
        fc.record({
          op: fc.constant('callStatus' as const),
          i: fc.nat(),
          status: fc.constantFrom('scheduled' as const, 'completed' as const, 'cancelled' as const),
        }),
        fc.record({ op: fc.constant('callDate' as const), i: fc.nat(), pick: fc.nat({ max: 3 }) }),
        fc.record({ op: fc.constant('deleteCall' as const), i: fc.nat() }),
      ),
      { minLength: 1, maxLength: 25 },
    );
    await fc.assert(
      fc.asyncProperty(ops, async (sequence: Op[]) => {
        await sql`truncate dealers, call_schedules cascade`.execute(t.db);
        const ids = [await addDealer(), await addDealer()];
        const calls = [await addCall()];
        let seen = await observe();
        for (const o of sequence) {
          const target = ids.length ? ids[('i' in o ? o.i : 0) % ids.length]! : null;
          const call = calls.length ? calls[('i' in o ? o.i : 0) % calls.length]! : null;
          switch (o.op) {
            case 'insert':
              ids.push(await addDealer());
              break;
            case 'update': {
              if (!target) break;
              const value = {
                full_name: ['List Ann', 'list bob', 'Zed', 'Amy List'][o.pick]!,
                company_name: ['Listco', null, 'Other', 'Listers'][o.pick] ?? null,
                email: `pick${o.pick}.${seq++}@list.test`,
                tier: ['Affiliate', 'Authorized', 'Preferred', 'Preferred'][o.pick]!,
                status: ['pending', 'approved', 'active', 'rejected'][o.pick]!,
                referred_by: o.pick < 2 ? (ids[o.pick] ?? null) : null,
                access_granted: o.pick % 2 === 0,
              }[o.column];
              await sql`update dealers set ${sql.ref(o.column)} = ${value} where id = ${target}`.execute(t.db);
              break;
            }
            case 'updateAll':
              await sql`update dealers set tier = ${o.tier} where status = 'approved'`.execute(t.db);
              break;
            case 'delete':
              if (!target) break;
              await sql`delete from dealers where id = ${target}`.execute(t.db);
              ids.splice(ids.indexOf(target), 1);
              break;
            case 'link':
              if (!target) break;
              await sql`delete from affiliate_links where dealer_id = ${target}`.execute(t.db);
              await sql`insert into affiliate_links (recruiter_id, dealer_id, affiliate_code)
                values (${`l${seq++}`}, ${target}, ${`LC${seq}`})`.execute(t.db);
              break;
            case 'unlink':
              if (!target) break;
              await sql`delete from affiliate_links where dealer_id = ${target}`.execute(t.db);
              break;
            case 'renameLink':
              if (!target) break;
              await sql`update affiliate_links set recruiter_id = ${`r${o.pick}x${seq++}`} where dealer_id = ${target}`.execute(
                t.db,
              );
              break;
            case 'countLink':
              if (!target) break;
              await sql`update affiliate_links set total_referrals = total_referrals + 1 where dealer_id = ${target}`.execute(
                t.db,
              );
              break;
            case 'book':
              calls.push(await addCall());
              break;
            case 'callStatus':
              if (!call) break;
              await sql`update call_schedules set status = ${o.status} where id = ${call}`.execute(t.db);
              break;
            case 'callDate':
              if (!call) break;
              await sql`update call_schedules set preferred_date = ${`2026-12-0${1 + o.pick}`} where id = ${call}`.execute(
                t.db,
              );
              break;
            case 'deleteCall':
              if (!call) break;
              await sql`delete from call_schedules where id = ${call}`.execute(t.db);
              calls.splice(calls.indexOf(call), 1);
              break;
          }
          const now = await observe();
          expect(now.dealers, 'a version never goes back').toBeGreaterThanOrEqual(seen.dealers);
          expect(now.callsVersion, 'a version never goes back').toBeGreaterThanOrEqual(seen.callsVersion);
          if (now.views.some((v, k) => v !== seen.views[k])) {
            expect(now.dealers, `${o.op} changed the table`).toBeGreaterThan(seen.dealers);
          }
          if (now.calls !== seen.calls) {
            expect(now.callsVersion, `${o.op} changed the calls`).toBeGreaterThan(seen.callsVersion);
          }
          if (now.metricsDealers !== seen.metricsDealers) {
            expect(now.dealers, `${o.op} changed the cards' dealers`).toBeGreaterThan(seen.dealers);
          }
          if (now.metricsCalls !== seen.metricsCalls) {
            expect(now.callsVersion, `${o.op} changed the cards' calls`).toBeGreaterThan(seen.callsVersion);
          }
          seen = now;
        }
      }),
      { numRuns: 60 },
    );
  });
});
