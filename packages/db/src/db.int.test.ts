import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrate';
import { seed } from './seed';
import { BUSINESS_TABLES, createTestDatabase, newDealer, type TestDatabase } from './testing';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

describe(`schema on ${process.env.TEST_DB}`, () => {
  it('creates the nine tables of the spec and the support tables', async () => {
    const { rows } = await t.pool.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public'",
    );
    const names = rows.map((r) => r.table_name);
    for (const table of [...BUSINESS_TABLES, 'audit_logs', 'sessions', 'email_outbox', 'rate_limits']) {
      expect(names).toContain(table);
    }
  });

  it('applies defaults and maps columns to camelCase', async () => {
    const row = await t.db
      .insertInto('dealers')
      .values(newDealer('defaults@example.com'))
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(row.accessGranted).toBe(false);
    expect(row.licensedInstallers).toBe(false);
    expect(row.productVerticals).toEqual([]);
    expect(row.totalRevenue).toBe('0.00');
    expect(row.averageOrderValue).toBe('0.00');
    expect(row.totalOrders).toBe(0);
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps dealer emails unique regardless of case', async () => {
    await t.db.insertInto('dealers').values(newDealer('Case@Example.com')).execute();
    await expect(t.db.insertInto('dealers').values(newDealer('case@example.COM')).execute()).rejects.toThrow(/unique/i);
  });

  it('refuses values outside the enums', async () => {
    await expect(
      t.db
        .insertInto('dealers')
        .values({ ...newDealer('enum@example.com'), tier: 'Gold' as never })
        .execute(),
    ).rejects.toThrow(/check/i);
    await expect(
      t.db
        .insertInto('dealers')
        .values({ ...newDealer('enum2@example.com'), status: 'deleted' as never })
        .execute(),
    ).rejects.toThrow(/check/i);
  });

  it('enforces referred_by as a foreign key', async () => {
    await expect(
      t.db
        .insertInto('dealers')
        .values({ ...newDealer('fk@example.com'), referredBy: '00000000-0000-4000-8000-000000000000' })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
  });

  it('seeds once, idempotently', async () => {
    await seed(t.db);
    await seed(t.db);
    const videos = await t.db.selectFrom('landingVideos').select(['videoKey', 'title']).orderBy('videoKey').execute();
    expect(videos).toEqual([
      { videoKey: 'demo_video', title: 'Full Product Demo' },
      { videoKey: 'intro_video', title: '60-Second Intro Video' },
    ]);
    const forms = await t.db.selectFrom('firstOrderForms').select('tier').orderBy('tier').execute();
    expect(forms.map((f) => f.tier)).toEqual(['Affiliate', 'Authorized', 'Preferred']);
  });

  it('answers many concurrent parameterized queries and transactions correctly', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 4 === 0
          ? t.db.transaction().execute(async (trx) => {
              await trx
                .insertInto('dealers')
                .values(newDealer(`concurrent${i}@example.com`))
                .execute();
              return trx
                .selectFrom('dealers')
                .select('email')
                .where('email', '=', `concurrent${i}@example.com`)
                .executeTakeFirstOrThrow()
                .then((r) => r.email);
            })
          : t.db
              .selectFrom('landingVideos')
              .select('videoKey')
              .where('videoKey', '=', i % 2 ? 'intro_video' : 'demo_video')
              .executeTakeFirstOrThrow()
              .then((r) => r.videoKey),
      ),
    );
    for (const [i, r] of results.entries()) {
      expect(r).toBe(i % 4 === 0 ? `concurrent${i}@example.com` : i % 2 ? 'intro_video' : 'demo_video');
    }
  });

  it('writes from functions in PL/pgSQL only, which parses them once per connection (decision 0830)', async () => {
    // PostgreSQL inlines no SQL-language function that writes and keeps no plan for one from one
    // statement to the next: a trigger calling one planned its insert again at every write.
    const { rows } = await t.pool.query<{ name: string }>(
      `select p.proname as name from pg_proc p join pg_language l on l.oid = p.prolang
       where p.pronamespace = 'public'::regnamespace and l.lanname = 'sql'
         and p.prosrc ~* '\\m(insert|update|delete|merge)\\M'`,
    );
    expect(rows.map((r) => r.name)).toEqual([]);
  });

  it('migrating again is a no-op', async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
  });
});
