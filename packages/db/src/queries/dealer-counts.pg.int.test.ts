import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { countDealersByStatus } from './dealer-counts';

// PostgreSQL only (PGlite has one connection): the kept counters' shards (migrations 0800, 0900,
// 0910, the referral versions of 0950 and the admin console's versions of 0960) let two open transactions on different connections go on without waiting for each other.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

/** A new dealer, referred by `referredBy` when given. */
const insert = (name: string, referredBy: string | null = null) =>
  `insert into dealers (tier, full_name, email, phone_e164, referred_by, updated_at)
   values ('Affiliate', '${name}', '${name}@counts.test', '+15555550100', ${referredBy ? `'${referredBy}'` : 'null'}, now())`;

/** A committed dealer's id. */
async function insertDealer(name: string): Promise<string> {
  const { rows } = await t.pool.query(`${insert(name)} returning id`);
  return rows[0].id as string;
}

/** Runs `sql` in two transactions on two connections, the second while the first is still open. */
async function bothOpen(first: string, second: string) {
  const a = await t.pool.connect();
  const b = await t.pool.connect();
  try {
    await a.query('begin');
    await a.query(first);
    await b.query('begin');
    await b.query(`set local lock_timeout = '2s'`);
    await b.query(second);
    await b.query('commit');
    await a.query('commit');
  } finally {
    a.release();
    b.release();
  }
}

describe('kept counters on PostgreSQL', () => {
  it('a signup does not wait for another uncommitted signup of the same status and tier', async () => {
    const first = await t.pool.connect();
    const second = await t.pool.connect();
    try {
      await first.query('begin');
      await first.query(insert('first-open'));
      // With one counter row per (status, tier) this insert waited for the first transaction's commit.
      await second.query('begin');
      await second.query(`set local lock_timeout = '2s'`);
      await second.query(insert('second-open'));
      await second.query('commit');
      await first.query('commit');
    } finally {
      first.release();
      second.release();
    }
    const pending = (await countDealersByStatus(t.db, { tier: 'Affiliate' }, 1_000)).counts.find(
      (r) => r.status === 'pending',
    );
    expect(pending?.count).toBe(2);
  });

  it('a booking does not wait for another uncommitted booking', async () => {
    const book = (email: string) =>
      `insert into call_schedules (name, email, phone, preferred_date, preferred_time, status)
       values ('Caller', '${email}', '+15555550100', '2026-12-01', 'morning', 'scheduled')`;
    await bothOpen(book('first@calls.test'), book('second@calls.test'));
    const r = await t.pool.query(`select sum(n)::int as n from call_counts where status = 'scheduled'`);
    expect(r.rows[0].n).toBe(2);
  });

  it('a commission does not wait for another uncommitted commission of the same recruiter and month', async () => {
    const recruiter = await insertDealer('recruiter');
    const earn = (cents: number) =>
      `insert into commissions (kind, recruiter_id, recruiter_dealer_id, referred_dealer_id, commission_type, amount, status)
       values ('commission', 'rec', '${recruiter}', '${recruiter}', 'percent', ${cents} / 100.0, 'pending')`;
    await bothOpen(earn(1000), earn(250));
    const r = await t.pool.query(
      `select sum(n)::int as n, sum(amount)::text as amount from recruiter_commission_totals where recruiter_dealer_id = $1`,
      [recruiter],
    );
    expect(r.rows[0]).toEqual({ n: 2, amount: '12.50' });
  });

  it("a referral's signup does not wait for another uncommitted referral of the same recruiter", async () => {
    const recruiter = await insertDealer('busy-recruiter');
    await bothOpen(insert('referral-one', recruiter), insert('referral-two', recruiter));
    const r = await t.pool.query(`select sum(n)::int as n from referral_versions where dealer_id = $1`, [recruiter]);
    expect(r.rows[0].n).toBe(2);
  });
});
