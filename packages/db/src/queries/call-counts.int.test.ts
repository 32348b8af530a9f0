import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { insertCallSchedule, updateCallStatus } from './call-schedules';
import { dealerMetrics } from './dealer-counts';

// The metrics' scheduled calls come from call_counts, kept by statement triggers, one shard per
// database connection (migration 0900). They must equal count(*) over call_schedules through
// bookings, status changes, deletes and a truncate, and under concurrent bookings.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

async function expectScheduledExact() {
  const r = await sql<{ n: string }>`select count(*) as n from call_schedules where status = 'scheduled'`.execute(t.db);
  expect((await dealerMetrics(t.db)).scheduledCalls).toBe(Number(r.rows[0]!.n));
  const kept = await sql<{ status: string; n: string }>`
    select status, sum(n) as n from call_counts group by 1 having sum(n) <> 0 order by 1`.execute(t.db);
  const counted = await sql<{ status: string; n: string }>`
    select status, count(*) as n from call_schedules group by 1 order by 1`.execute(t.db);
  expect(kept.rows).toEqual(counted.rows);
}

let seq = 0;
const book = (db = t.db) => {
  seq++;
  return insertCallSchedule(db, {
    name: `Caller ${seq}`,
    email: `caller${seq}@calls.test`,
    phone: '+15555550100',
    preferredDate: '2026-12-01',
    preferredTime: 'morning',
    status: 'scheduled',
  });
};

describe(`call counts kept by triggers on ${process.env.TEST_DB}`, () => {
  it('follow bookings, status changes, many-row updates, deletes and a truncate', async () => {
    await expectScheduledExact();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await book()).id);
    await expectScheduledExact();
    expect((await dealerMetrics(t.db)).scheduledCalls).toBe(5);
    await updateCallStatus(t.db, ids[0]!, 'completed');
    await updateCallStatus(t.db, ids[1]!, 'cancelled');
    await updateCallStatus(t.db, ids[1]!, 'cancelled');
    await sql`update call_schedules set notes = 'rang twice' where id = ${ids[2]!}`.execute(t.db);
    await expectScheduledExact();
    expect((await dealerMetrics(t.db)).scheduledCalls).toBe(3);
    await sql`update call_schedules set status = case status when 'scheduled' then 'completed' else 'scheduled' end`.execute(
      t.db,
    );
    await expectScheduledExact();
    await sql`delete from call_schedules where id = ${ids[3]!}`.execute(t.db);
    await expectScheduledExact();
    await sql`truncate call_schedules`.execute(t.db);
    await expectScheduledExact();
    expect((await dealerMetrics(t.db)).scheduledCalls).toBe(0);
  });

  it('stay exact when many bookings commit at once on different connections', async () => {
    await Promise.all(Array.from({ length: 50 }, () => t.db.transaction().execute((trx) => book(trx))));
    await expectScheduledExact();
    expect((await dealerMetrics(t.db)).scheduledCalls).toBe(50);
  });
});
