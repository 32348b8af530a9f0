import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error';
import { check, clear, hit } from '../src/services/accounts/rate-limit';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

describe('database rate limits', () => {
  it('allows max hits in a window, then refuses with a retry time', async () => {
    const limit = { max: 3, windowSec: 60 };
    for (let i = 0; i < 3; i++) await hit(t.db, 'k1', limit);
    const err = await hit(t.db, 'k1', limit).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.extra.retryAfterSec).toBeGreaterThan(0);
    expect(err.extra.retryAfterSec).toBeLessThanOrEqual(60);
    expect(err.message).toMatch(/try again in 1 minute/);
    await expect(check(t.db, ['k1', limit])).rejects.toThrow(/Too many attempts/);
  });

  it('checks several budgets in one go: any spent one refuses, counting nothing', async () => {
    const spent = { max: 2, windowSec: 60 };
    const roomy = { max: 100, windowSec: 60 };
    for (let i = 0; i < 2; i++) await hit(t.db, 'k4-spent', spent);
    await hit(t.db, 'k4-roomy', roomy);
    await expect(check(t.db, ['k4-roomy', roomy], ['k4-spent', spent])).rejects.toThrow(/Too many attempts/);
    await expect(check(t.db, ['k4-roomy', roomy], ['k4-none', spent])).resolves.toBeUndefined();
    const rows = await t.db
      .selectFrom('rateLimits')
      .select(['key', 'count'])
      .where('key', 'like', 'k4-%')
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'k4-roomy', count: 1 },
      { key: 'k4-spent', count: 2 },
    ]);
  });

  it('counts concurrent hits exactly', async () => {
    const limit = { max: 1_000, windowSec: 60 };
    await Promise.all(Array.from({ length: 25 }, () => hit(t.db, 'k2', limit)));
    const row = await t.db.selectFrom('rateLimits').select('count').where('key', '=', 'k2').executeTakeFirstOrThrow();
    expect(row.count).toBe(25);
  });

  it('starts a new window once the old one has passed, and can be cleared', async () => {
    const limit = { max: 1, windowSec: 60 };
    await hit(t.db, 'k3', limit);
    await t.db
      .updateTable('rateLimits')
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where('key', '=', 'k3')
      .execute();
    await expect(hit(t.db, 'k3', limit)).resolves.toBeUndefined();
    await clear(t.db, 'k3');
    await expect(check(t.db, ['k3', limit])).resolves.toBeUndefined();
  });
});
