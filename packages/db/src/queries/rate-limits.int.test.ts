import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { countHits } from './rate-limits';

// countHits counts a burst exactly, in one statement; on its own (outside a transaction) its commit
// does not wait for the disk, and that setting ends with its own transaction (decision 0760).

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const budgets = [
  { key: 'signup:ip:test', windowSec: 3600 },
  { key: 'mail:to:a@hits.test', windowSec: 3600 },
];

describe(`countHits on ${process.env.TEST_DB}`, () => {
  it('gives each of many concurrent callers its own count, on every key', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => countHits(t.db, budgets)));
    for (const { key } of budgets) {
      const counts = results.map((rows) => rows.find((r) => r.key === key)!.count).sort((a, b) => a - b);
      expect(counts).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    }
  });

  it('leaves synchronous_commit as it was on the connection after its own transaction', async () => {
    // Every pooled connection that ran it, then asked in a statement of its own.
    await Promise.all(Array.from({ length: 8 }, () => countHits(t.db, budgets)));
    const settings = await Promise.all(
      Array.from({ length: 8 }, () =>
        sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(t.db),
      ),
    );
    expect(new Set(settings.map((r) => r.rows[0]!.v))).toEqual(new Set(['on']));
  });

  it('inside a transaction leaves the setting of the caller’s transaction alone', async () => {
    const inside = await t.db.transaction().execute(async (trx) => {
      await countHits(trx, [{ key: 'inside:test', windowSec: 60 }]);
      return (await sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(trx)).rows[0]!.v;
    });
    expect(inside).toBe('on');
  });

  it('the way it relaxes its commit covers the statement’s own transaction only', async () => {
    // The statement's own transaction sees the setting (read back in the same statement), the next one does not.
    const r = await sql<{ v: string }>`
      with relaxed as (select set_config('synchronous_commit', 'off', true))
      select current_setting('synchronous_commit') as v from relaxed`.execute(t.db);
    expect(r.rows[0]!.v).toBe('off');
    const after = await sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(t.db);
    expect(after.rows[0]!.v).toBe('on');
  });
});
