import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, newDealer, type TestDatabase } from '../testing';
import type { DealerStatus, Tier } from '../types';
import { countDealersByStatus } from './dealer-counts';
import { type DealerListFilter, listDealersPage } from './dealers';

// A search of the admin's table is answered from its window (decision 0792): the newest `window`
// dealers matching the search and tier, by created_at then id. The tabs count the window, the
// status filter, sort and pages work within it, and `capped` says more dealers matched. Checked
// against a model of that rule over random dealers, searches, filters, sorts and window sizes.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const NAMES = ['Ann Smith', 'anna lee', 'Dan Smithers', 'Lee Ann', 'Xi Zhang', 'Bo SMITH'];
const COMPANIES = [null, 'Smith Solar', 'Attic Pros'];
const STATUSES: DealerStatus[] = ['pending', 'approved', 'active', 'rejected'];
const TIERS: Tier[] = ['Affiliate', 'Preferred'];
const T0 = Date.UTC(2026, 10, 1);

interface Row {
  id: string;
  name: string;
  company: string | null;
  email: string;
  status: DealerStatus;
  tier: Tier;
  createdAt: number;
}

const dealerArb = fc.record({
  name: fc.constantFrom(...NAMES),
  company: fc.constantFrom(...COMPANIES),
  status: fc.constantFrom(...STATUSES),
  tier: fc.constantFrom(...TIERS),
  // Few distinct times: ties are ordered by id.
  minute: fc.integer({ min: 0, max: 5 }),
});

const viewArb = fc.record({
  q: fc.constantFrom('ann', 'SMITH', 'lee', 'solar', '@win', 'zz'),
  tier: fc.constantFrom(undefined, ...TIERS),
  status: fc.constantFrom(undefined, ...STATUSES),
  // Every sort key: the page sorts the window's own columns, so each must be carried out of it.
  sort: fc.constantFrom(...(['createdAt', 'fullName', 'companyName', 'email', 'tier', 'status'] as const)),
  dir: fc.constantFrom('asc' as const, 'desc' as const),
  page: fc.integer({ min: 1, max: 3 }),
  pageSize: fc.integer({ min: 1, max: 4 }),
});

/** Strings compared as the database's C collation does for ASCII text. */
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

function model(rows: Row[], f: DealerListFilter, window: number) {
  const q = f.q!.toLowerCase();
  const matches = rows
    .filter((r) => `${r.name} ${r.company ?? ''} ${r.email}`.toLowerCase().includes(q))
    .filter((r) => !f.tier || r.tier === f.tier)
    .sort((a, b) => cmp(b.createdAt, a.createdAt) || cmp(b.id, a.id));
  const inWindow = matches.slice(0, window);
  const counts = new Map<string, number>();
  for (const r of inWindow) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const keys: Record<DealerListFilter['sort'], (r: Row) => string | number> = {
    createdAt: (r) => r.createdAt,
    fullName: (r) => r.name.toLowerCase(),
    companyName: (r) => (r.company ?? '').toLowerCase(),
    email: (r) => r.email.toLowerCase(),
    tier: (r) => r.tier,
    status: (r) => r.status,
  };
  const key = keys[f.sort];
  const sign = f.dir === 'asc' ? 1 : -1;
  const page = inWindow
    .filter((r) => !f.status || r.status === f.status)
    .sort(
      (a, b) =>
        sign * cmp(key(a), key(b)) ||
        (f.sort === 'createdAt' ? 0 : cmp(b.createdAt, a.createdAt)) ||
        sign * cmp(a.id, b.id),
    )
    .slice((f.page - 1) * f.pageSize, f.page * f.pageSize);
  return { ids: page.map((r) => r.id), counts, capped: matches.length > window };
}

describe(`the admin search's window on ${process.env.TEST_DB}`, () => {
  it('counts, filters, sorts and pages only the newest matches, and says when more matched', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(dealerArb, { minLength: 2, maxLength: 14 }),
        viewArb,
        fc.integer({ min: 1, max: 6 }),
        async (dealers, view, window) => {
          run++;
          await sql`delete from dealers`.execute(t.db);
          const values = dealers.map((d, i) => ({
            ...newDealer(`w${run}.${i}@window.test`),
            fullName: d.name,
            companyName: d.company,
            status: d.status,
            tier: d.tier,
            createdAt: new Date(T0 + d.minute * 60_000),
          }));
          const inserted = values.length
            ? await t.db.insertInto('dealers').values(values).returning('id').execute()
            : [];
          const rows: Row[] = values.map((v, i) => ({
            id: inserted[i]!.id,
            name: v.fullName,
            company: v.companyName,
            email: v.email,
            status: v.status,
            tier: v.tier,
            createdAt: v.createdAt.getTime(),
          }));
          const f: DealerListFilter = view;
          const expected = model(rows, f, window);
          const page = await listDealersPage(t.db, f, window);
          expect(page.map((d) => d.id)).toEqual(expected.ids);
          const got = await countDealersByStatus(t.db, f, window);
          expect(new Map(got.counts.map((c) => [c.status, c.count]))).toEqual(expected.counts);
          expect(got.capped).toBe(expected.capped);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('is capped only past the window: as many matches as the window is not capped', async () => {
    await sql`delete from dealers`.execute(t.db);
    const values = [0, 1, 2].map((i) => ({
      ...newDealer(`edge${i}@edge.test`),
      createdAt: new Date(T0 + i * 60_000),
    }));
    await t.db.insertInto('dealers').values(values).execute();
    const f: DealerListFilter = { q: 'edge', sort: 'createdAt', dir: 'desc', page: 1, pageSize: 10 };
    expect((await countDealersByStatus(t.db, f, 3)).capped).toBe(false);
    const capped = await countDealersByStatus(t.db, f, 2);
    expect(capped).toEqual({ counts: [{ status: 'pending', count: 2 }], capped: true });
    // The window is the newest two: the oldest is not on any page.
    expect((await listDealersPage(t.db, f, 2)).map((d) => d.email)).toEqual(['edge2@edge.test', 'edge1@edge.test']);
  });
});
