import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, newDealer, type TestDatabase } from '../testing';
import { countDealersByStatus } from './dealer-counts';
import { insertDealer } from './dealers';

// dealer_counts is kept by statement triggers, one shard per database connection (migrations 0303
// and 0800): signups on different connections never queue on a shared counter row, and readers sum
// the shards.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

async function countedPerStatus() {
  const r = await sql<{ status: string; n: string }>`select status, count(*) as n from dealers group by 1`.execute(
    t.db,
  );
  return Object.fromEntries(r.rows.map((row) => [row.status, Number(row.n)]));
}

async function keptPerStatus() {
  const { counts } = await countDealersByStatus(t.db, {}, 1_000);
  return Object.fromEntries(counts.filter((r) => r.count !== 0).map((r) => [r.status, r.count]));
}

describe(`dealer counters kept by triggers on ${process.env.TEST_DB}`, () => {
  it('stay exact when many signups commit at once on different connections', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.db.transaction().execute((trx) => insertDealer(trx, newDealer(`burst-${i}@counts.test`))),
      ),
    );
    await sql`update dealers set status = 'approved' where email like 'burst-1%@counts.test'`.execute(t.db);
    expect(await keptPerStatus()).toEqual(await countedPerStatus());
  });
});
