import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The Activity tab's keyset indexes (0610) were built descending. A btree is read backward just
// as cheaply, so they are rebuilt ascending: newest-first pages still walk them (backward), and a
// dealer's trail read without ORDER BY no longer comes back newest first merely because the planner
// chose one of these indexes (the trail's order is the order it was written in, as before 0610).
const INDEXES = [
  ['audit_logs_created_id_idx', 'created_at', 'id'],
  ['audit_logs_actor_created_idx', "(coalesce(details ->> 'actor', details ->> 'account'))", 'created_at', 'id'],
  ['audit_logs_event_created_id_idx', 'event_type', 'created_at', 'id'],
  ['audit_logs_dealer_created_id_idx', 'dealer_id', 'created_at', 'id'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
async function rebuild(db: Kysely<any>, direction: '' | ' desc'): Promise<void> {
  for (const [name, ...columns] of INDEXES) {
    const cols = columns.map((c, i) => (i === 0 && columns.length === 3 ? c : `${c}${direction}`)).join(', ');
    await sql`drop index if exists ${sql.ref(name)}`.execute(db);
    await sql`create index ${sql.ref(name)} on audit_logs (${sql.raw(cols)})`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see rebuild
export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, '');
}

// biome-ignore lint/suspicious/noExplicitAny: see rebuild
export async function down(db: Kysely<any>): Promise<void> {
  await rebuild(db, ' desc');
}
