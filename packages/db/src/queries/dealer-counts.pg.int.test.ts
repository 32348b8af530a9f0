import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { countDealersByStatus } from './dealer-counts';

// PostgreSQL only (PGlite has one connection): the counters' shards (migration 0800) let two
// open signups on different connections go on without waiting for each other.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const insert = (name: string) =>
  `insert into dealers (tier, full_name, email, phone_e164, updated_at)
   values ('Affiliate', '${name}', '${name}@counts.test', '+15555550100', now())`;

describe('dealer counters on PostgreSQL', () => {
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
    const pending = (await countDealersByStatus(t.db, { tier: 'Affiliate' })).find((r) => r.status === 'pending');
    expect(pending?.count).toBe(2);
  });
});
