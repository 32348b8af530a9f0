import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 12. The outbox sends one recipient's emails in the order they were queued (the claim
// looks for an older unsent row of the same address: this index), and an email that carries a
// one-time link records the link's SHA-256 (never the link) so a link retired or used before the
// email left marks the email 'superseded' instead of sending it.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table email_outbox add column token_hash text`.execute(db);
  await sql`alter table email_outbox drop constraint if exists email_outbox_status_check`.execute(db);
  await sql`alter table email_outbox add constraint email_outbox_status_check
    check (status in ('pending', 'sending', 'sent', 'logged', 'failed', 'superseded'))`.execute(db);
  // Two emails queued by one transaction keep their order too (now() is the transaction's start).
  await sql`alter table email_outbox alter column created_at set default clock_timestamp()`.execute(db);
  await sql`create index email_outbox_recipient_order_idx on email_outbox (lower(to_address), created_at)
    where status in ('pending', 'sending')`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists email_outbox_recipient_order_idx`.execute(db);
  await sql`alter table email_outbox alter column created_at set default now()`.execute(db);
  await sql`update email_outbox set status = 'failed' where status = 'superseded'`.execute(db);
  await sql`alter table email_outbox drop constraint if exists email_outbox_status_check`.execute(db);
  await sql`alter table email_outbox add constraint email_outbox_status_check
    check (status in ('pending', 'sending', 'sent', 'logged', 'failed'))`.execute(db);
  await sql`alter table email_outbox drop column token_hash`.execute(db);
}
