import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, newDealer, type TestDatabase } from '../testing';
import { dealerMetrics, medianDaysToFirstOrder } from './dealer-counts';
import { insertDealer } from './dealers';
import { insertOrderOnce, refreshDealerTotals } from './orders';

// The admin summary's median days from approval to first order comes from the trigger-kept
// histogram first_order_days and the index on the seconds (migration 0750). It must stay exactly
// what percentile_cont over the dealers table returns (decision 0720), through any sequence of
// changes to the dealers, and under concurrent first orders.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 9, 30, 0);

/** The histogram, and the same counts grouped from the dealers table, and both medians (unrounded and rounded). */
async function expectKeptHistogramExact() {
  const r = await sql<{ kept: string | null; counted: string | null; median: number | null; direct: number | null }>`
    select
      (select json_agg(json_build_array(days, dealers, at_start) order by days)::text
        from first_order_days where dealers <> 0 or at_start <> 0) as kept,
      (select json_agg(json_build_array(days, n, at_start) order by days)::text from (
        select floor(s / 86400)::integer as days, count(*) as n, count(*) filter (where s = floor(s / 86400) * 86400) as at_start
        from (select greatest(0, extract(epoch from first_order_at - approval_date)) as s
          from dealers where first_order_at is not null and approval_date is not null) x
        group by 1) c) as counted,
      (${medianDaysToFirstOrder}) as median,
      (select percentile_cont(0.5) within group (
          order by greatest(0, extract(epoch from first_order_at - approval_date)) / 86400)
        from dealers where first_order_at is not null and approval_date is not null) as direct`.execute(t.db);
  const row = r.rows[0]!;
  expect(row.kept).toBe(row.counted);
  expect(row.median === null ? null : Number(row.median)).toBe(row.direct === null ? null : Number(row.direct));
  const rounded = await sql<{ v: string | null }>`
    select round(percentile_cont(0.5) within group (
        order by greatest(0, extract(epoch from first_order_at - approval_date)) / 86400)::numeric, 1) as v
    from dealers where first_order_at is not null and approval_date is not null`.execute(t.db);
  const v = rounded.rows[0]!.v;
  expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(v === null ? null : Number(v));
}

/** An offset from approval to first order: whole-day boundaries, ties, before the approval, any millisecond. */
const gap = fc.oneof(
  fc.constantFrom(0, 1, -1, DAY, DAY - 1, 2 * DAY, 3 * DAY + 1, -DAY),
  fc.integer({ min: -3 * DAY, max: 30 * DAY }),
);
const when = fc.option(fc.integer({ min: -10 * DAY, max: 40 * DAY }), { nil: null });

type Op =
  | { op: 'insert'; rows: { approval: number | null; gap: number | null }[] }
  | { op: 'approve'; i: number; at: number | null }
  | { op: 'firstOrder'; i: number; at: number | null }
  | { op: 'both'; i: number; approval: number; gap: number }
  | { op: 'touch'; i: number }
  | { op: 'shiftAll'; by: number }
  | { op: 'delete'; i: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    rows: fc.array(fc.record({ approval: when, gap: fc.option(gap, { nil: null }) }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ op: fc.constant('approve' as const), i: fc.nat(), at: when }),
  fc.record({ op: fc.constant('firstOrder' as const), i: fc.nat(), at: when }),
  fc.record({ op: fc.constant('both' as const), i: fc.nat(), approval: fc.integer({ min: 0, max: 20 * DAY }), gap }),
  fc.record({ op: fc.constant('touch' as const), i: fc.nat() }),
  fc.record({ op: fc.constant('shiftAll' as const), by: gap }),
  fc.record({ op: fc.constant('delete' as const), i: fc.nat() }),
);

let seq = 0;
async function apply(ids: string[], o: Op) {
  const pick = (i: number) => ids[i % ids.length]!;
  switch (o.op) {
    case 'insert': {
      // One statement for all rows: the statement trigger sees several new dealers at once.
      const rows = o.rows.map((r) => {
        seq++;
        const approvalDate = r.approval === null ? null : new Date(T0 + r.approval);
        const firstOrderAt = r.gap === null ? null : new Date(T0 + (r.approval ?? 0) + r.gap);
        return { ...newDealer(`fod-${seq}@days.test`), approvalDate, firstOrderAt };
      });
      const inserted = await t.db.insertInto('dealers').values(rows).returning('id').execute();
      ids.push(...inserted.map((r) => r.id));
      return;
    }
    case 'approve':
      if (ids.length === 0) return;
      await t.db
        .updateTable('dealers')
        .set({ approvalDate: o.at === null ? null : new Date(T0 + o.at) })
        .where('id', '=', pick(o.i))
        .execute();
      return;
    case 'firstOrder':
      if (ids.length === 0) return;
      await t.db
        .updateTable('dealers')
        .set({ firstOrderAt: o.at === null ? null : new Date(T0 + o.at) })
        .where('id', '=', pick(o.i))
        .execute();
      return;
    case 'both':
      if (ids.length === 0) return;
      await t.db
        .updateTable('dealers')
        .set({ approvalDate: new Date(T0 + o.approval), firstOrderAt: new Date(T0 + o.approval + o.gap) })
        .where('id', '=', pick(o.i))
        .execute();
      return;
    case 'touch':
      // A change that moves no dealer between days.
      if (ids.length === 0) return;
      await t.db
        .updateTable('dealers')
        .set({ fullName: 'Touched', updatedAt: new Date() })
        .where('id', '=', pick(o.i))
        .execute();
      return;
    case 'shiftAll':
      // One statement moving many dealers between days at once (some up, some down, some to null stays null).
      if (ids.length === 0) return;
      await sql`update dealers set first_order_at = first_order_at + ${`${o.by} milliseconds`}::interval
        where id in (${sql.join(ids)})`.execute(t.db);
      return;
    case 'delete': {
      if (ids.length === 0) return;
      const id = pick(o.i);
      await t.db.deleteFrom('dealers').where('id', '=', id).execute();
      ids.splice(ids.indexOf(id), 1);
      return;
    }
  }
}

describe(`first-order days kept by triggers on ${process.env.TEST_DB}`, () => {
  it('the migration starts from the dealers and the median is null with none', async () => {
    await expectKeptHistogramExact();
  });

  it('give percentile_cont’s exact median after any sequence of inserts, approvals, first orders, updates and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const ids: string[] = [];
        try {
          for (const o of ops) await apply(ids, o);
          await expectKeptHistogramExact();
        } finally {
          if (ids.length > 0) await t.db.deleteFrom('dealers').where('id', 'in', ids).execute();
        }
        await expectKeptHistogramExact();
      }),
      { numRuns: 60 },
    );
  });

  it('the median is the mean of the two middle values for an even count, the middle one for an odd count', async () => {
    const ids: string[] = [];
    const add = async (hours: number) => {
      seq++;
      const d = await insertDealer(t.db, {
        ...newDealer(`fixed-${seq}@days.test`),
        approvalDate: new Date(T0),
        firstOrderAt: new Date(T0 + hours * 3_600_000),
      });
      ids.push(d.id);
    };
    try {
      await add(12); // 0.5 days
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(0.5);
      await add(3 * 24); // 3 days: mean of 0.5 and 3
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(1.8); // 1.75 rounded half away from zero
      await add(-48); // before the approval: 0 days; middle of 0, 0.5, 3
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(0.5);
      await add(30); // 1.25 days: mean of 0.5 and 1.25
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(0.9); // 0.875
      await expectKeptHistogramExact();
    } finally {
      await t.db.deleteFrom('dealers').where('id', 'in', ids).execute();
    }
    expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBeNull();
  });

  it('read a value at the start of a day without the index, and walk a day from either end', async () => {
    const ids: string[] = [];
    const add = async (ms: number) => {
      seq++;
      const d = await insertDealer(t.db, {
        ...newDealer(`walk-${seq}@days.test`),
        approvalDate: new Date(T0),
        firstOrderAt: new Date(T0 + ms),
      });
      ids.push(d.id);
    };
    try {
      // Day 0: two orders before the approval and one at it (exactly 0) and one an hour after; day 2:
      // one exactly on its first second, then 49 h ... 54 h; then days 10 to 14.
      for (const ms of [-DAY, -5, 0, 3_600_000, 2 * DAY]) await add(ms);
      for (let h = 49; h <= 54; h++) await add(h * 3_600_000);
      for (let d = 10; d <= 14; d++) await add(d * DAY);
      // Sixteen: the middle pair is 51 h (walked from the start of day 2) and 52 h (from its end).
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(2.1); // 51.5 / 24 = 2.1458
      await expectKeptHistogramExact();
      await add(15 * DAY);
      // Seventeen: the middle one is 52 h, walked from the end of day 2.
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(2.2); // 52 / 24 = 2.1667
      await expectKeptHistogramExact();
      // Days 10 to 15 gone, four more exact zeros: fifteen, the middle one is 1 h (day 0, after its seven zeros).
      await t.db.deleteFrom('dealers').where('id', 'in', ids.splice(11, 6)).execute();
      for (let i = 0; i < 4; i++) await add(-i * 1000);
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(0); // 1 / 24 = 0.0417
      await expectKeptHistogramExact();
      // Without the 1 h order: fourteen, the middle pair is the last zero and day 2's first second.
      await t.db.deleteFrom('dealers').where('id', '=', ids.splice(3, 1)[0]!).execute();
      expect((await dealerMetrics(t.db)).medianDaysToFirstOrder).toBe(1);
      await expectKeptHistogramExact();
    } finally {
      await t.db.deleteFrom('dealers').where('id', 'in', ids).execute();
    }
  });

  it('stay exact when 40 transactions record first orders at once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      seq++;
      const d = await insertDealer(t.db, {
        ...newDealer(`busy-${seq}@days.test`),
        status: 'approved',
        approvalDate: new Date(T0 + (i % 3) * 3_600_000),
      });
      ids.push(d.id);
    }
    // Few distinct days, so many transactions add to the same histogram rows at once.
    await Promise.all(
      ids.map((id, i) =>
        t.db.transaction().execute(async (trx) => {
          await insertOrderOnce(trx, {
            dealerId: id,
            source: 'admin',
            externalOrderId: `FOD-${seq}-${i}`,
            amount: '100.00',
            orderedAt: new Date(T0 + (i % 4) * DAY + i * 60_000),
            recordedBy: 'test',
            status: 'placed',
          });
          await refreshDealerTotals(trx, id);
        }),
      ),
    );
    await expectKeptHistogramExact();
    const kept = await sql<{ n: string }>`select coalesce(sum(dealers), 0) as n from first_order_days`.execute(t.db);
    const dealers = await sql<{ n: string }>`
      select count(*) as n from dealers where first_order_at is not null and approval_date is not null`.execute(t.db);
    expect(Number(kept.rows[0]!.n)).toBe(Number(dealers.rows[0]!.n));
    expect(Number(kept.rows[0]!.n)).toBeGreaterThanOrEqual(40);

    // And 40 at once moving them between days and deleting some.
    await Promise.all(
      ids.map((id, i) =>
        t.db.transaction().execute(async (trx) => {
          if (i % 5 === 0) await trx.deleteFrom('dealers').where('id', '=', id).execute();
          else
            await trx
              .updateTable('dealers')
              .set({ firstOrderAt: new Date(T0 + ((i * 7) % 5) * DAY + 1) })
              .where('id', '=', id)
              .execute();
        }),
      ),
    );
    await expectKeptHistogramExact();
    await t.db.deleteFrom('dealers').where('id', 'in', ids).execute();
    await expectKeptHistogramExact();
  });
});
