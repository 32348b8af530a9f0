import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, parseDatabaseUrl } from './client';
import { MIGRATION_LOCK_ID, MigrationLockTimeoutError, migrateToLatest } from './migrate';
import { createEmptyPostgresDatabase } from './testing';

/**
 * Issue 46: instances that start together on an empty database. One migrates, the others wait
 * (and say so), nobody is left holding a lock, and a wait has an end.
 */
let empty: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  empty = await createEmptyPostgresDatabase();
});
afterAll(async () => {
  await empty?.drop();
});

const advisoryLocks = async (url: string) => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(
      `select count(*)::int n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
    );
    return rows[0].n as number;
  } finally {
    await c.end();
  }
};

describe('migrations started together (PostgreSQL)', () => {
  it('three processes migrate an empty database at once: one applies every migration, the others wait and apply none', async () => {
    const dbs = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: empty.url, poolSize: 2 })));
    try {
      const waits: number[] = [];
      const results = await Promise.all(
        dbs.map((d, i) => migrateToLatest(d.db, { pollMs: 50, logEveryMs: 0, onWait: () => waits.push(i) })),
      );
      const applied = results.map((r) => r.length).sort((a, b) => b - a);
      expect(applied[0]).toBeGreaterThan(10);
      expect(applied.slice(1)).toEqual([0, 0]);
      // The ones that found the lock taken said so.
      expect(new Set(waits).size).toBeGreaterThanOrEqual(1);
      expect(await migrateToLatest(dbs[0]!.db)).toEqual([]);
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
    }
    // The lock lived with its transaction: no connection is left holding it.
    expect(await advisoryLocks(empty.url)).toBe(0);
  });

  it('gives up with a clear error after the bounded wait while another session holds the lock', async () => {
    const holder = new pg.Client({ connectionString: empty.url });
    await holder.connect();
    const d = await openDatabase({ databaseUrl: empty.url, poolSize: 1 });
    try {
      await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
      const waited: number[] = [];
      const err = await migrateToLatest(d.db, {
        maxWaitMs: 600,
        pollMs: 100,
        logEveryMs: 200,
        onWait: (ms) => waited.push(ms),
      }).catch((e) => e);
      expect(err).toBeInstanceOf(MigrationLockTimeoutError);
      expect(err.message).toMatch(/waiting .* for the migration lock/);
      expect(waited.length).toBeGreaterThanOrEqual(2);
      // Released, the next try goes through (nothing left to apply).
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
      expect(await migrateToLatest(d.db, { maxWaitMs: 5_000 })).toEqual([]);
    } finally {
      await holder.end();
      await d.close();
    }
  });

  it('?pgbouncer=true is removed from the URL pg sees and turns named statements off', async () => {
    expect(parseDatabaseUrl('postgres://u@h:6432/db?pgbouncer=true')).toEqual({
      connectionString: 'postgres://u@h:6432/db',
      transactionPooler: true,
    });
    expect(parseDatabaseUrl('postgres://u@h:6432/db?sslmode=require&pgbouncer=false')).toEqual({
      connectionString: 'postgres://u@h:6432/db?sslmode=require',
      transactionPooler: false,
    });
    expect(parseDatabaseUrl('postgres://u@h/db').transactionPooler).toBe(false);
    const d = await openDatabase({ databaseUrl: `${empty.url}?pgbouncer=true`, poolSize: 1 });
    try {
      expect(d.transactionPooler).toBe(true);
      const c = await d.pool.connect();
      try {
        // Unnamed: nothing is left prepared on the server connection for the next client.
        const { PREPARED_STATEMENTS } = await import('./prepared');
        PREPARED_STATEMENTS.set('select 41 + 1 as n', 'dn_q_test_pooler');
        expect((await c.query('select 41 + 1 as n')).rows).toEqual([{ n: 42 }]);
        expect((await c.query(`select count(*)::int n from pg_prepared_statements`)).rows[0].n).toBe(0);
      } finally {
        c.release();
      }
    } finally {
      await d.close();
    }
  });
});
