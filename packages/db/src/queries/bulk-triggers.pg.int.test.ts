import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';

// PostgreSQL only. The kept counters and versions are statement triggers that read the transition
// tables; a statement over many rows must cost them time in proportion to the rows, never to their
// square. Migration 0960 once tested the links' change with EXISTS over a join of the old and new
// rows: the planner chose a nested loop for it, and an update of 200,000 links' counters (which
// changes nothing the admin's table shows) ran for minutes. Each statement below has a limit tens of
// times above what it takes (about a second here for 50,000 rows, all triggers included).

const ROWS = 50_000;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.pool.query(`
    insert into dealers (tier, full_name, email, phone_e164, updated_at)
    select 'Affiliate', 'Bulk ' || g, 'bulk' || g || '@triggers.test', '+15555550100', now()
    from generate_series(1, ${ROWS}) g`);
  await t.pool.query(`
    insert into affiliate_links (recruiter_id, dealer_id, affiliate_code)
    select 'bulk' || row_number() over (), id, 'BULK' || row_number() over () from dealers`);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function withinLimit(statement: string) {
  const c = await t.pool.connect();
  try {
    await c.query('begin');
    await c.query(`set local statement_timeout = '30s'`);
    const r = await c.query(statement);
    await c.query('commit');
    return r.rowCount;
  } finally {
    c.release();
  }
}

describe('statement triggers over many rows', () => {
  it("an update of every link's counters", async () => {
    expect(await withinLimit('update affiliate_links set total_referrals = total_referrals + 1')).toBe(ROWS);
  });

  it('an update of every link that changes its recruiter id', async () => {
    expect(await withinLimit(`update affiliate_links set recruiter_id = recruiter_id || 'x'`)).toBe(ROWS);
  });

  it("an update of every dealer's name and of every dealer's status", async () => {
    expect(await withinLimit(`update dealers set full_name = full_name || '.'`)).toBe(ROWS);
    expect(await withinLimit(`update dealers set status = 'approved', updated_at = now()`)).toBe(ROWS);
  });

  it('a delete of every dealer', async () => {
    expect(await withinLimit('delete from dealers')).toBe(ROWS);
  });
});
