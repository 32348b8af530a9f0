import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { countHits } from './rate-limits';

// countHits counts a burst exactly, in one statement (decision 0630): concurrent callers each see
// their own count, so at most a budget's number of them pass.

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
});
