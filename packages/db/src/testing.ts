import { randomBytes } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { type Database, openDatabase } from './client';
import { postgresReachable, TEST_PG_ADMIN_URL } from './postgres-reachable';
import { insertLedgerEntryOnce } from './queries/commissions';
import { insertOrderOnce } from './queries/orders';
import { clonePostgresTemplate, pgliteSnapshot, withDatabase } from './test-template';
import type { CommissionStatus, DB } from './types';

/** Test helpers: every run gets a database of its own, so runs never see each other's data. */

export { postgresReachable, TEST_PG_ADMIN_URL };

export type TestDbKind = 'postgres' | 'pglite';

export function testDbKind(): TestDbKind {
  return process.env.TEST_DB === 'pglite' ? 'pglite' : 'postgres';
}

/**
 * The business tables: the spec's tables of what dealers, applicants and admins create, and the
 * admins. Not the logs, sessions, rate limits or email outbox: a test adds those it means.
 */
export const BUSINESS_TABLES = [
  'dealers',
  'call_schedules',
  'affiliate_links',
  'commissions',
  'magic_link_tokens',
  'landing_videos',
  'first_order_forms',
  'admins',
] as const;

export interface TestDatabase extends Database {
  /** The connection string of a PostgreSQL test database (undefined on PGlite). */
  url: string | undefined;
}

/**
 * A new, migrated and seeded database; `close()` also drops it. Cloned from a template made once
 * (test-template.ts), so a test file does not run every migration again.
 */
export async function createTestDatabase(kind: TestDbKind = testDbKind(), poolSize = 10): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openDatabase({ poolSize, loadDataDir: await pgliteSnapshot() });
    return { ...database, url: undefined };
  }
  const { url, name } = await clonePostgresTemplate();
  const database = await openDatabase({ databaseUrl: url, poolSize });
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await dropDatabase(name);
    },
  };
}

/** A new, empty PostgreSQL database (no migrations): for tests of migrating and of a first start. */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `dn_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return { url: withDatabase(TEST_PG_ADMIN_URL, name), drop: () => dropDatabase(name) };
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

/** The fields a dealers row needs, for tests that insert one directly. */
export const newDealer = (email: string) => ({
  tier: 'Affiliate' as const,
  fullName: 'Jane Roe',
  email,
  phoneE164: '+15551234567',
  updatedAt: new Date(),
});

/** A Sort or Incremental Sort node in a plan from `planWithoutSorting`. */
export const SORT_NODE = /"Node Type":"(Incremental )?Sort"/;

/**
 * The plan of `query` with sorting and whole-table scans priced out: only an index already in the
 * statement's order avoids a Sort node. Returns the plan as JSON text.
 */
export async function planWithoutSorting(t: TestDatabase, query: RawBuilder<unknown>): Promise<string> {
  return t.db.transaction().execute(async (trx) => {
    await sql`set local enable_sort = off`.execute(trx);
    await sql`set local enable_seqscan = off`.execute(trx);
    const r = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${query}`.execute(trx);
    return JSON.stringify(r.rows[0]!['QUERY PLAN']);
  });
}

/**
 * The statements this connection holds under the app's names (prepared.ts: `dn_q…`), with their
 * parameter types ('{}' when none). Run it on the connection that ran them (`db.connection()`):
 * prepared statements belong to one session. PGlite names nothing (client.ts), so it holds none.
 */
export async function namedStatements(
  db: Kysely<DB>,
): Promise<{ statement: string; parameterTypes: string; runs: number }[]> {
  // runs: how many times the connection has run it (its generic and custom plans' counts).
  const { rows } = await sql<{ statement: string; parameterTypes: string; runs: number }>`
    select statement, parameter_types::text as parameter_types, (generic_plans + custom_plans)::int as runs
    from pg_prepared_statements
    where name like 'dn_q%'`.execute(db);
  return rows;
}

let testOrders = 0;

/**
 * An order of $100.00 by the referred dealer and the ledger entry it earned the recruiter: a
 * commission (pending) or a clawback (approved) of `amount`, ordered `at` (now by default). For the
 * tests of the ledger's reads and kept totals. Resolves with the entry's id.
 */
export async function insertTestLedgerEntry(
  db: Kysely<DB>,
  e: {
    recruiterDealerId: string;
    referredDealerId: string;
    amount: string;
    kind?: 'commission' | 'clawback';
    status?: CommissionStatus;
    at?: Date;
  },
): Promise<string> {
  testOrders++;
  const orderId = `TEST-${testOrders}-${randomBytes(4).toString('hex')}`;
  const kind = e.kind ?? 'commission';
  const orderedAt = e.at ?? new Date();
  const order = await insertOrderOnce(db, {
    dealerId: e.referredDealerId,
    source: 'admin',
    externalOrderId: orderId,
    amount: '100.00',
    orderedAt,
    recordedBy: 'test',
    status: 'placed',
  });
  const entry = await insertLedgerEntryOnce(db, {
    kind,
    recruiterId: 'rec-test',
    recruiterDealerId: e.recruiterDealerId,
    referredDealerId: e.referredDealerId,
    commissionType: 'percent',
    amount: e.amount,
    status: e.status ?? (kind === 'clawback' ? 'approved' : 'pending'),
    orderId,
    orderRef: order!.id,
    ruleId: null,
    orderAmount: '100.00',
    orderedAt,
    holdUntil: null,
  });
  return entry!.id;
}

/**
 * Empties the ledger, its payout batches and the orders that earned it (the kept totals follow,
 * by their truncate triggers): a property run then starts from nothing without a new database.
 */
export async function resetLedger(db: Kysely<DB>): Promise<void> {
  await sql`truncate commissions, payout_returns, payouts, order_events, orders, jobs cascade`.execute(db);
}

/**
 * Every table's row count and checksum (md5 of its rows' text, in order), read on `client` (inside
 * a backup's transaction, it is the database at the backup's moment): what a restore must equal.
 */
export async function tableChecksums(client: pg.ClientBase): Promise<Record<string, string>> {
  const tables = await client.query<{ name: string }>(
    `select relname::text as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')
      and relname not in ('kysely_migration', 'kysely_migration_lock') order by relname`,
  );
  const sums: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const r = await client.query<{ n: string; sum: string }>(
      `select count(*)::text as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as sum from "${name}" t`,
    );
    sums[name] = `${r.rows[0]!.n} rows, ${r.rows[0]!.sum}`;
  }
  return sums;
}

/** A second connection to a test database, as another process would open (the embedded one: its socket). */
export async function secondConnection(database: Database & { url?: string | undefined }): Promise<pg.Client> {
  const [host, port] = (database.address ?? '').split(':');
  const client = new pg.Client(
    database.url
      ? { connectionString: database.url }
      : { host, port: Number(port), user: 'postgres', database: 'postgres' },
  );
  await client.connect();
  return client;
}
