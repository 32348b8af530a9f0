import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 46, part 3. The outbox's queue order was (created_at, id): on the embedded PGlite,
// clock_timestamp() is kept to the millisecond, so two emails to one recipient queued in the same
// millisecond tied, and the tie went to the random uuid: the second could leave first. A sequence
// number taken at insert is the queue order on both databases, whatever the clock's precision.
// Existing rows are numbered in their old order; the two queue indexes follow the new column.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table email_outbox add column seq bigint`.execute(db);
  await sql`update email_outbox o set seq = r.n
    from (select id, row_number() over (order by created_at, id) as n from email_outbox) r
    where r.id = o.id`.execute(db);
  await sql`alter table email_outbox alter column seq set not null`.execute(db);
  await sql`alter table email_outbox alter column seq add generated always as identity`.execute(db);
  await sql`select setval(pg_get_serial_sequence('email_outbox', 'seq'), coalesce(max(seq), 0) + 1, false)
    from email_outbox`.execute(db);
  await sql`drop index if exists email_outbox_queue_priority_idx`.execute(db);
  await sql`create index email_outbox_queue_priority_idx on email_outbox (priority, seq)
    where status in ('pending', 'sending')`.execute(db);
  await sql`drop index if exists email_outbox_recipient_order_idx`.execute(db);
  await sql`create index email_outbox_recipient_order_idx on email_outbox (lower(to_address), seq)
    where status in ('pending', 'sending')`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists email_outbox_recipient_order_idx`.execute(db);
  await sql`create index email_outbox_recipient_order_idx on email_outbox (lower(to_address), created_at)
    where status in ('pending', 'sending')`.execute(db);
  await sql`drop index if exists email_outbox_queue_priority_idx`.execute(db);
  await sql`create index email_outbox_queue_priority_idx on email_outbox (priority, created_at, id)
    where status in ('pending', 'sending')`.execute(db);
  await sql`alter table email_outbox drop column seq`.execute(db);
}
