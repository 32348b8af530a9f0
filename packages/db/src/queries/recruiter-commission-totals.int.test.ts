import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, insertTestLedgerEntry, newDealer, type TestDatabase } from '../testing';
import type { CommissionStatus } from '../types';
import { ledgerTotals, recruiterTotals } from './commissions';
import { insertDealer } from './dealers';
import { insertPayout } from './payouts';

// A recruiter's own summary (recruiterTotals) reads recruiter_commission_totals, kept per recruiter
// and UTC month by triggers (migration 0910). It must equal what ledgerTotals aggregates from the
// ledger itself, for every recruiter and any month start, through any sequence of changes.

let t: TestDatabase;
let recruiters: string[];
let referred: string;
let payoutId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  recruiters = [];
  for (const name of ['ann', 'bob', 'cy'])
    recruiters.push((await insertDealer(t.db, newDealer(`${name}@rct.test`))).id);
  referred = (await insertDealer(t.db, { ...newDealer('buyer@rct.test'), referredBy: recruiters[0]! })).id;
  payoutId = (
    await insertPayout(t.db, {
      minimum: '0.00',
      total: '0.00',
      recruiterCount: 0,
      commissionCount: 0,
      createdBy: 'test',
    })
  ).id;
});
afterAll(async () => {
  await t?.close();
});

const MONTHS = [new Date(Date.UTC(2026, 9, 1)), new Date(Date.UTC(2026, 10, 1)), new Date(Date.UTC(2026, 11, 1))];

/** Every recruiter's kept summary equals the ledger's own aggregate, from each month start. */
async function expectKeptExact() {
  for (const r of recruiters) {
    const counted = await ledgerTotals(t.db, { recruiterDealerId: r });
    for (const monthStart of MONTHS) {
      const kept = await recruiterTotals(t.db, r, monthStart);
      const month = await ledgerTotals(t.db, { recruiterDealerId: r, from: monthStart });
      expect(kept, `${r} from ${monthStart.toISOString()}`).toEqual({
        total: counted.total,
        pending: counted.pending,
        approved: counted.approved,
        paid: counted.paid,
        clawbacks: counted.clawbacks,
        payable: counted.payable,
        thisMonth: month.ledger,
      });
    }
  }
}

/** One ledger entry, created at `at` (ms since epoch), for a recruiter (or none). */
async function earn(recruiter: string | null, cents: number, kind: 'commission' | 'clawback', at: number) {
  const sign = kind === 'clawback' && cents > 0 ? '-' : '';
  const id = await insertTestLedgerEntry(t.db, {
    recruiterDealerId: recruiter ?? recruiters[0]!,
    referredDealerId: referred,
    // Exact decimal text from integer cents.
    amount: `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    kind,
    at: new Date(at),
  });
  await sql`update commissions set created_at = ${new Date(at)}, recruiter_dealer_id = ${recruiter}
    where id = ${id}`.execute(t.db);
  return id;
}

// Around the month boundaries: the last and first millisecond of a UTC month matter.
const instant = fc.oneof(
  fc.constantFrom(...MONTHS.flatMap((m) => [m.getTime(), m.getTime() - 1, m.getTime() + 1])),
  fc.integer({ min: Date.UTC(2026, 8, 20), max: Date.UTC(2027, 0, 10) }),
);
const STATUSES: CommissionStatus[] = ['pending', 'approved', 'paid', 'voided', 'cancelled'];

type Op =
  | { op: 'earn'; r: number | null; cents: number; clawback: boolean; at: number }
  | { op: 'status'; i: number; status: CommissionStatus }
  | { op: 'move'; i: number; at: number }
  | { op: 'reassign'; i: number; r: number | null }
  | { op: 'statusAll'; status: CommissionStatus }
  | { op: 'touch'; i: number }
  | { op: 'batch'; i: number; batched: boolean }
  | { op: 'delete'; i: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('earn' as const),
    r: fc.option(fc.nat({ max: 2 }), { nil: null }),
    cents: fc.integer({ min: 0, max: 99_999_999 }),
    clawback: fc.boolean(),
    at: instant,
  }),
  fc.record({ op: fc.constant('status' as const), i: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ op: fc.constant('move' as const), i: fc.nat(), at: instant }),
  fc.record({ op: fc.constant('reassign' as const), i: fc.nat(), r: fc.option(fc.nat({ max: 2 }), { nil: null }) }),
  fc.record({ op: fc.constant('statusAll' as const), status: fc.constantFrom(...STATUSES) }),
  fc.record({ op: fc.constant('touch' as const), i: fc.nat() }),
  fc.record({ op: fc.constant('batch' as const), i: fc.nat(), batched: fc.boolean() }),
  fc.record({ op: fc.constant('delete' as const), i: fc.nat() }),
);

async function apply(ids: string[], o: Op) {
  const pick = (i: number) => ids[i % ids.length]!;
  const who = (r: number | null) => (r === null ? null : recruiters[r]!);
  if (o.op === 'earn') {
    ids.push(await earn(who(o.r), o.cents, o.clawback ? 'clawback' : 'commission', o.at));
    return;
  }
  if (ids.length === 0) return;
  switch (o.op) {
    case 'status':
      await sql`update commissions set status = ${o.status} where id = ${pick(o.i)}`.execute(t.db);
      return;
    case 'move':
      await sql`update commissions set created_at = ${new Date(o.at)} where id = ${pick(o.i)}`.execute(t.db);
      return;
    case 'reassign':
      await sql`update commissions set recruiter_dealer_id = ${who(o.r)} where id = ${pick(o.i)}`.execute(t.db);
      return;
    case 'statusAll':
      // One statement moving many entries between statuses (and recruiters' rows) at once.
      await sql`update commissions set status = ${o.status} where id in (${sql.join(ids)})`.execute(t.db);
      return;
    case 'touch':
      // A change that moves nothing between totals.
      await sql`update commissions set approved_by = 'someone' where id = ${pick(o.i)}`.execute(t.db);
      return;
    case 'batch':
      // Into a payout batch or out of it: what is payable moves.
      await sql`update commissions set payout_id = ${o.batched ? payoutId : null} where id = ${pick(o.i)}`.execute(
        t.db,
      );
      return;
    case 'delete': {
      const id = pick(o.i);
      await sql`delete from commissions where id = ${id}`.execute(t.db);
      ids.splice(ids.indexOf(id), 1);
      return;
    }
  }
}

describe(`recruiter commission totals kept by triggers on ${process.env.TEST_DB}`, () => {
  it('are zero for a recruiter with no ledger', async () => {
    await expectKeptExact();
    expect(await recruiterTotals(t.db, recruiters[2]!, MONTHS[0]!)).toEqual({
      total: 0,
      pending: '0.00',
      approved: '0.00',
      paid: '0.00',
      clawbacks: '0.00',
      payable: '0.00',
      thisMonth: '0.00',
    });
  });

  it('equal the ledger after any sequence of entries, status changes, batching, moves between months and recruiters, and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 20 }), async (ops) => {
        const ids: string[] = [];
        try {
          for (const o of ops) await apply(ids, o);
          await expectKeptExact();
        } finally {
          if (ids.length > 0) await sql`delete from commissions where id in (${sql.join(ids)})`.execute(t.db);
        }
        await expectKeptExact();
      }),
      { numRuns: 40 },
    );
  });

  it('stay exact when many transactions earn for one recruiter at once on different connections', async () => {
    const at = Date.now();
    const monthStart = new Date(at);
    monthStart.setUTCDate(1);
    monthStart.setUTCHours(0, 0, 0, 0);
    const before = await recruiterTotals(t.db, recruiters[1]!, monthStart);
    // 1.25 + 2.25 + ... + 40.25 = 830.00
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => earn(recruiters[1]!, (i + 1) * 100 + 25, 'commission', at)),
    );
    const after = await recruiterTotals(t.db, recruiters[1]!, monthStart);
    const cents = (s: string) => BigInt(s.replace('.', ''));
    expect(after.total - before.total).toBe(40);
    expect(cents(after.pending) - cents(before.pending)).toBe(83_000n);
    expect(cents(after.thisMonth) - cents(before.thisMonth)).toBe(83_000n);
    await expectKeptExact();
    await sql`delete from commissions where id in (${sql.join(ids)})`.execute(t.db);
    await expectKeptExact();
  });
});
