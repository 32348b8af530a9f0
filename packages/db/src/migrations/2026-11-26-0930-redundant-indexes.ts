import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Indexes no query needs any more, each written on every insert (and on every update that is not
// HOT) of its table. The audit trail takes a row per signup, sign-in and affiliate visit; a signup
// wrote 35 index entries in all. Measured with pg_waldump over 300 signups: 57 WAL records each
// before, 53 after; these four were 3 of the audit row's 10 index entries and the status index's one.
// - audit_logs (created_at), (dealer_id, created_at), (event_type, created_at), from the initial
//   schema: each is a prefix of an Activity-tab index of 0610/0654 ((created_at, id),
//   (dealer_id, created_at, id), (event_type, created_at, id)), which serves every read it served.
// - dealers (status, tier), from 0301 for the status tab counts and summary cards: those read the
//   trigger-kept dealer_counts since 0303; a filter on status alone has (status, created_at).
// docs/decisions/0770-write-amplification.md.
const DROPPED = [
  ['audit_logs_created_idx', 'audit_logs', 'created_at'],
  ['audit_logs_dealer_created_idx', 'audit_logs', 'dealer_id, created_at'],
  ['audit_logs_event_type_idx', 'audit_logs', 'event_type, created_at'],
  ['dealers_status_tier_idx', 'dealers', 'status, tier'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name] of DROPPED) await sql`drop index if exists ${sql.ref(name)}`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of DROPPED) {
    await sql`create index if not exists ${sql.ref(name)} on ${sql.ref(table)} (${sql.raw(columns)})`.execute(db);
  }
}
