import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';

// PostgreSQL only. The kept counters and versions are statement triggers that read the transition
// tables; a statement over many rows must cost them time in proportion to the rows, never to their
// square. A join of the old and new rows can be planned as a nested loop: under EXISTS (migration
// 0960's first version: an update of 200,000 links' counters ran for minutes), or when PL/pgSQL
// planned it for the connection's first, small statement (0950's, until 0970). So the triggers
// compare the rows by set differences. Each statement below has a 30 s limit, about ten times
// what it takes here (1-4 s for 50,000 rows, all triggers included); a nested loop takes minutes.

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

/** Runs `statement` under the limit, on a connection that first ran `before` (small statements). */
async function withinLimit(statement: string, before: string[] = []) {
  const c = await t.pool.connect();
  try {
    for (const s of before) await c.query(s);
    await c.query('begin');
    await c.query(`set local statement_timeout = '30s'`);
    const r = await c.query(statement);
    await c.query('commit');
    return r.rowCount;
  } catch (e) {
    await c.query('rollback');
    throw e;
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

  it("an update of every dealer's referrer, after a one-row update on the same connection", async () => {
    // PL/pgSQL keeps a trigger statement's plan for the connection: planned for the first, small
    // transition tables, a join of the old and new rows was a nested loop, and at 1,000,000 dealers
    // the bench seed's move of 47,619 referrals (after a one-row update) never finished (0970).
    const recruiters = await t.pool.query('select id from dealers order by id limit 20');
    const ids = `array['${recruiters.rows.map((r) => r.id as string).join("','")}']::uuid[]`;
    expect(
      await withinLimit(`update dealers set referred_by = (${ids})[1 + abs(hashtext(id::text)) % 20]`, [
        `update dealers set full_name = 'Primed' where id = '${recruiters.rows[19].id}'`,
      ]),
    ).toBe(ROWS);
  });

  it("an update of every link's code, after a one-row update on the same connection", async () => {
    expect(
      await withinLimit(`update affiliate_links set affiliate_code = affiliate_code || 'y'`, [
        `update affiliate_links set affiliate_code = 'PRIMED' where recruiter_id = (select min(recruiter_id) from affiliate_links)`,
      ]),
    ).toBe(ROWS);
  });

  it('a delete of every dealer', async () => {
    expect(await withinLimit('delete from dealers')).toBe(ROWS);
  });
});
