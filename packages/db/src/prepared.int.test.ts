import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEW_STATEMENTS, PREPARED_STATEMENTS, prepareQuery, runView, statementName, viewOnce } from './prepared';
import { createTestDatabase, namedStatements, newDealer, type TestDatabase } from './testing';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db
    .insertInto('dealers')
    .values(
      ['a', 'b', 'c'].map((x, i) => ({
        ...newDealer(`${x}@prepared.test`),
        fullName: `Dealer ${x.toUpperCase()}`,
        totalOrders: i,
      })),
    )
    .execute();
});
afterAll(async () => {
  await t?.close();
});

const byEmail = prepareQuery(['email', 'minOrders'], (db, p) =>
  db
    .selectFrom('dealers')
    .select(['fullName', 'totalOrders'])
    .where('email', '=', p.email)
    .where('totalOrders', '>=', p.minOrders as unknown as number)
    .where('tier', '=', 'Affiliate')
    .limit(2),
);

describe(`prepareQuery on ${process.env.TEST_DB}`, () => {
  it('binds fresh values to the named parameters and keeps the compiled ones', async () => {
    expect((await byEmail(t.db, { email: 'b@prepared.test', minOrders: 0 })).rows).toEqual([
      { fullName: 'Dealer B', totalOrders: 1 },
    ]);
    expect((await byEmail(t.db, { email: 'c@prepared.test', minOrders: 2 })).rows).toEqual([
      { fullName: 'Dealer C', totalOrders: 2 },
    ]);
    expect((await byEmail(t.db, { email: 'c@prepared.test', minOrders: 3 })).rows).toEqual([]);
    // A value that looks like SQL is still only a value.
    expect((await byEmail(t.db, { email: "x' or '1'='1", minOrders: 0 })).rows).toEqual([]);
  });

  it('runs inside a transaction on the transaction', async () => {
    const rows = await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('dealers').set({ fullName: 'Renamed' }).where('email', '=', 'a@prepared.test').execute();
      return (await byEmail(trx, { email: 'a@prepared.test', minOrders: 0 })).rows;
    });
    expect(rows).toEqual([{ fullName: 'Renamed', totalOrders: 0 }]);
  });

  it('runs as a named prepared statement on each PostgreSQL connection, parsed once (PGlite: unnamed)', async () => {
    await t.db.connection().execute(async (c) => {
      for (const email of ['a@prepared.test', 'b@prepared.test', 'c@prepared.test']) {
        await byEmail(c, { email, minOrders: 0 });
      }
      const mine = (await namedStatements(c)).filter((r) => r.statement.includes('"total_orders" >='));
      // PGlite is one session behind its socket, which outlives a pool connection: no names there.
      expect(mine).toHaveLength(process.env.TEST_DB === 'postgres' ? 1 : 0);
    });
  });

  it('names a view with its values written in, never a statement with parameters, and at most MAX_VIEW_STATEMENTS', async () => {
    const literal = t.db.selectFrom('dealers').select('id').where('tier', '=', sql.lit('Preferred')).limit(sql.lit(3));
    expect(literal.compile().parameters).toEqual([]);
    expect(await runView(t.db, literal)).toHaveLength(0);
    expect(PREPARED_STATEMENTS.get(literal.compile().sql)).toBe(statementName(literal.compile().sql));
    const withParams = t.db.selectFrom('dealers').select('fullName').where('email', '=', 'a@prepared.test');
    expect(withParams.compile().parameters).toEqual(['a@prepared.test']);
    expect(await runView(t.db, withParams)).toEqual([{ fullName: expect.any(String) }]);
    expect(PREPARED_STATEMENTS.has(withParams.compile().sql)).toBe(false);
    // Distinct texts beyond the bound run unnamed.
    const texts = Array.from({ length: MAX_VIEW_STATEMENTS + 5 }, (_, i) =>
      t.db
        .selectFrom('dealers')
        .select('id')
        .limit(sql.lit(i + 1000)),
    );
    for (const q of texts) await runView(t.db, q);
    const named = texts.filter((q) => PREPARED_STATEMENTS.has(q.compile().sql));
    expect(named.length).toBe(MAX_VIEW_STATEMENTS - 1);
  });

  it('refuses a parameter the query does not use', async () => {
    const q = prepareQuery(['email', 'unused'], (db, p) =>
      db.selectFrom('dealers').select('id').where('email', '=', p.email),
    );
    await expect(q(t.db, { email: 'a@prepared.test', unused: 1 })).rejects.toThrow(/does not use unused/);
  });
  it('builds and compiles a view once per key, and at most MAX_VIEW_STATEMENTS keys', async () => {
    let built = 0;
    const build = (limit: number) => () => {
      built++;
      return t.db.selectFrom('dealers').select('email').orderBy('email').limit(sql.lit(limit));
    };
    const key = `prepared-test:${Math.random()}`;
    expect(await runView(t.db, viewOnce(t.db, key, build(2)))).toEqual([
      { email: 'a@prepared.test' },
      { email: 'b@prepared.test' },
    ]);
    // The same key is the same statement: not built again (a caller's key names every value written in).
    expect(await runView(t.db, viewOnce(t.db, key, build(2)))).toHaveLength(2);
    expect(built).toBe(1);
    // Beyond the bound a view is built each time, as before.
    for (let i = 0; i < MAX_VIEW_STATEMENTS + 1; i++) viewOnce(t.db, `prepared-test-many:${i}`, build(i + 1));
    built = 0;
    viewOnce(t.db, `prepared-test-many:${MAX_VIEW_STATEMENTS}`, build(1));
    viewOnce(t.db, `prepared-test-many:${MAX_VIEW_STATEMENTS}`, build(1));
    expect(built).toBe(2);
  });
});
