import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The outbox's claim takes the oldest due messages, 10 at a time. It found them through
// `email_outbox_due_idx (status, next_attempt_at)`, which is not their order, so every claim read
// and sorted every waiting message: 1 s a claim with 187,000 waiting (signups at 800 a second for a
// few minutes), so the queue drained more slowly the longer it grew. The waiting messages in their
// order, and nothing else: each claim walks from the oldest and stops once it has 10 due ones
// (decision 0820). The due index goes; no other read used it (the supersession walks the waiting
// messages, which this index holds).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index email_outbox_queue_idx on email_outbox (created_at, id)
    where status in ('pending', 'sending')`.execute(db);
  await sql`drop index if exists email_outbox_due_idx`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index email_outbox_due_idx on email_outbox (status, next_attempt_at)`.execute(db);
  await sql`drop index if exists email_outbox_queue_idx`.execute(db);
}
