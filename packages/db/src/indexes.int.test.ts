import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_PLAN, claimDueMailSql } from './queries/email-outbox';
import { createTestDatabase, planWithoutSorting, SORT_NODE, type TestDatabase } from './testing';

// Every index is written on every insert into its table, so one that another index already serves
// costs each write and serves no read (migration 0930, docs/decisions/0770-write-amplification.md).

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

interface IndexRow {
  table: string;
  name: string;
  /** Key columns as PostgreSQL prints them, each with its direction. */
  keys: string[];
  unique: boolean;
  partial: boolean;
}

async function btreeIndexes(): Promise<IndexRow[]> {
  const r = await sql<{ table: string; name: string; keys: string[]; unique: boolean; partial: boolean }>`
    select c.relname as table, i.relname as name, x.indisunique as unique, x.indpred is not null as partial,
      array(select pg_get_indexdef(x.indexrelid, k, true)
                   || case when (x.indoption[k - 1] & 1) = 1 then ' desc' else '' end
            from generate_series(1, x.indnkeyatts) k order by k) as keys
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class c on c.oid = x.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_am am on am.oid = i.relam
    where n.nspname = 'public' and am.amname = 'btree'`.execute(t.db);
  return r.rows;
}

/** Both directions of one column list name the same order read backwards. */
const reversed = (keys: string[]) => keys.map((k) => (k.endsWith(' desc') ? k.slice(0, -5) : `${k} desc`));
const startsWith = (keys: string[], prefix: string[]) => prefix.every((k, i) => keys[i] === k);

/**
 * Each plain index another index of its table serves, and that index: one whose keys its own keys
 * begin, or a unique one whose keys begin its own (a unique key has no ties for the further keys
 * to order; migration 1010).
 */
function redundantIndexes(all: IndexRow[]): string[] {
  const serves = (b: IndexRow, a: IndexRow) =>
    b.keys.length >= a.keys.length
      ? (startsWith(b.keys, a.keys) || startsWith(b.keys, reversed(a.keys))) &&
        // Two indexes with the same keys: only one of them can go (a unique one stays).
        (b.keys.length > a.keys.length || b.unique || a.name > b.name)
      : b.unique && (startsWith(a.keys, b.keys) || startsWith(a.keys, reversed(b.keys)));
  return all.flatMap((a) =>
    a.unique || a.partial
      ? []
      : all
          .filter((b) => b.table === a.table && b.name !== a.name && !b.partial && serves(b, a))
          .map((b) => `${a.name} (${a.keys.join(', ')}) is served by ${b.name} (${b.keys.join(', ')})`),
  );
}

describe(`indexes on ${process.env.TEST_DB}`, () => {
  it('has no plain index whose keys begin another index of its table (it serves no read the longer one does not)', async () => {
    const all = await btreeIndexes();
    expect(all.length).toBeGreaterThan(20);
    expect(redundantIndexes(all)).toEqual([]);
  });

  it('finds the cases it is there for', async () => {
    // The check itself must fail on what migration 0930 dropped, in either direction.
    await sql`create index indexes_test_prefix on audit_logs (dealer_id, created_at)`.execute(t.db);
    await sql`create index indexes_test_reversed on audit_logs (created_at desc)`.execute(t.db);
    // And on what migration 1010 dropped: a unique key with more keys after it.
    await sql`create index indexes_test_after_unique on dealers (lower(email), id)`.execute(t.db);
    try {
      expect(redundantIndexes(await btreeIndexes()).sort()).toEqual([
        'indexes_test_after_unique (lower(email), id) is served by dealers_email_lower_key (lower(email))',
        'indexes_test_prefix (dealer_id, created_at) is served by audit_logs_dealer_created_id_idx (dealer_id, created_at, id)',
        'indexes_test_reversed (created_at desc) is served by audit_logs_created_id_idx (created_at, id)',
      ]);
    } finally {
      await sql`drop index indexes_test_prefix`.execute(t.db);
      await sql`drop index indexes_test_reversed`.execute(t.db);
      await sql`drop index indexes_test_after_unique`.execute(t.db);
    }
  });

  it.each([
    ['newest first', sql``, 'audit_logs_created_id_idx'],
    ['one dealer', sql`where dealer_id = '00000000-0000-4000-8000-000000000001'`, 'audit_logs_dealer_created_id_idx'],
    ['one event', sql`where event_type = 'auth.signed_in'`, 'audit_logs_event_created_id_idx'],
    ['a date range', sql`where created_at >= '2026-01-01' and created_at < '2026-02-01'`, 'audit_logs_created_id_idx'],
  ])('reads an Activity page (%s) from an index in its order, without sorting', async (_name, where, index) => {
    const plan = await planWithoutSorting(
      t,
      sql`select id from audit_logs ${where} order by created_at desc, id desc limit 51`,
    );
    expect(plan).toContain(`"Index Name":"${index}"`);
    expect(plan).not.toMatch(SORT_NODE);
  });

  it('sorts the admin table by email from the unique email index, sorting only its ties', async () => {
    const plan = await planWithoutSorting(
      t,
      sql`select id from dealers d order by lower(d.email) asc, d.created_at desc, d.id asc limit 50`,
    );
    expect(plan).toContain('"Index Name":"dealers_email_lower_key"');
    expect(plan).not.toContain('"Node Type":"Sort"');
  });

  it("claims the outbox's oldest due messages by walking its waiting messages in order, without sorting", async () => {
    // As claimDueMail plans it: in its transaction, after its settings, on a table never analyzed.
    const plan = await t.db.transaction().execute(async (trx) => {
      await CLAIM_PLAN.execute(trx);
      const r = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${claimDueMailSql(10, new Date())}`.execute(
        trx,
      );
      return JSON.stringify(r.rows[0]?.['QUERY PLAN']);
    });
    expect(plan).toContain('"Index Name":"email_outbox_queue_priority_idx"');
    expect(plan).not.toMatch(SORT_NODE);
  });
});
