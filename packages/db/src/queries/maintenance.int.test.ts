import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { dueByRule, maintainDueTables, tablesDueForMaintenance } from './maintenance';

const activity = {
  table: 't',
  reltuples: 1_000,
  liveRows: 1_000,
  deadRows: 0,
  changedSinceAnalyze: 0,
  insertedSinceVacuum: 0,
};

describe('dueByRule (autovacuum defaults)', () => {
  it('vacuums past 50 + 20% dead rows, analyzes past 50 + 10% changed', () => {
    expect(dueByRule({ ...activity, deadRows: 250 })).toEqual({ table: 't', vacuum: false, analyze: false });
    expect(dueByRule({ ...activity, deadRows: 251 }).vacuum).toBe(true);
    expect(dueByRule({ ...activity, changedSinceAnalyze: 150 }).analyze).toBe(false);
    expect(dueByRule({ ...activity, changedSinceAnalyze: 151 })).toEqual({ table: 't', vacuum: false, analyze: true });
  });

  it('vacuums an insert-only table past 1,000 + 20% inserted rows', () => {
    expect(dueByRule({ ...activity, insertedSinceVacuum: 1_200 }).vacuum).toBe(false);
    expect(dueByRule({ ...activity, insertedSinceVacuum: 1_201 }).vacuum).toBe(true);
  });

  it('counts the live rows of a table never vacuumed (reltuples -1)', () => {
    const never = { ...activity, reltuples: -1, liveRows: 10_000 };
    expect(dueByRule({ ...never, deadRows: 2_000 }).vacuum).toBe(false);
    expect(dueByRule({ ...never, deadRows: 2_051 }).vacuum).toBe(true);
    expect(dueByRule({ ...never, liveRows: 0, deadRows: 51 }).vacuum).toBe(true);
  });
});

describe('maintainDueTables', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    // The migrations' and seed's own rows are maintained first, so each test starts from nothing due.
    await maintainDueTables(t.db);
  });
  afterAll(() => t.close());

  const stats = async (table: string) => {
    await sql`select pg_stat_force_next_flush()`.execute(t.db);
    const { rows } = await sql<{ dead: number; vacuumed: boolean; analyzed: boolean }>`
      select n_dead_tup::int as dead, (last_vacuum is not null or last_autovacuum is not null) as vacuumed,
        (last_analyze is not null or last_autoanalyze is not null) as analyzed
      from pg_stat_user_tables where relname = ${table} and schemaname = current_schema()`.execute(t.db);
    return rows[0]!;
  };

  it('leaves nothing due once it has run', async () => {
    expect(await tablesDueForMaintenance(t.db)).toEqual([]);
  });

  it('vacuums and analyzes a table whose rows were rewritten, and only that table', async () => {
    await sql`insert into rate_limits (key, count, reset_at)
      select 'maint:' || g, 1, now() + interval '1 hour' from generate_series(1, 400) g`.execute(t.db);
    await maintainDueTables(t.db);
    // Every row rewritten twice: 800 dead rows on 400 live.
    await sql`update rate_limits set count = count + 1 where key like 'maint:%'`.execute(t.db);
    await sql`update rate_limits set count = count + 1 where key like 'maint:%'`.execute(t.db);
    expect((await stats('rate_limits')).dead).toBeGreaterThanOrEqual(800);

    expect(await tablesDueForMaintenance(t.db)).toEqual([{ table: 'rate_limits', vacuum: true, analyze: true }]);
    const done = await maintainDueTables(t.db);
    expect(done.map(({ ms: _, ...d }) => d)).toEqual([{ table: 'rate_limits', vacuum: true, analyze: true }]);
    expect(done[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(await stats('rate_limits')).toEqual({ dead: 0, vacuumed: true, analyzed: true });
    expect(await tablesDueForMaintenance(t.db)).toEqual([]);
  });

  it('only analyzes a table with changed rows below the vacuum threshold', async () => {
    // 400 live rows: vacuum past 130 dead, analyze past 90 changed.
    await sql`update rate_limits set count = 0 where key in (select 'maint:' || g from generate_series(1, 100) g)`.execute(
      t.db,
    );
    expect(await tablesDueForMaintenance(t.db)).toEqual([{ table: 'rate_limits', vacuum: false, analyze: true }]);
    await maintainDueTables(t.db);
    expect((await stats('rate_limits')).dead).toBeGreaterThanOrEqual(100);
    expect(await tablesDueForMaintenance(t.db)).toEqual([]);
  });
});
