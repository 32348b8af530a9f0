import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 40 (docs/decisions/0982-mail-that-keeps-up.md, 0983-well-formed-mail.md).
//
// email_outbox.priority: 0 transactional (sign-in links, invitations, resets, confirmations), 1 bulk
// (a bulk review's decisions, digests, reminders). The claim walks the waiting messages by priority,
// then in the order they were queued (decision 0820): the queue index now leads with the priority.
// email_outbox.category: null for transactional mail; otherwise the kind of mail a recipient can turn
// off (digest, reminders), which gets List-Unsubscribe headers and is not sent to an address that
// turned it off. Two new final statuses: 'bounced' (the SMTP server refused the recipient for good)
// and 'suppressed' (not sent: the address bounced before, or turned that category off).
//
// email_preferences: the categories an address turned off (one-click unsubscribe), by lower(address).
// email_suppressions: addresses not mailed again (a hard bounce), by lower(address); a dealer whose
// email changes to an address that is here clears it (they gave it again), by trigger.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table email_outbox add column priority smallint not null default 0
    check (priority in (0, 1))`.execute(db);
  await sql`alter table email_outbox add column category text
    check (category is null or category ~ '^[a-z][a-z_]{0,39}$')`.execute(db);
  await sql`alter table email_outbox drop constraint email_outbox_status_check`.execute(db);
  await sql`alter table email_outbox add constraint email_outbox_status_check
    check (status in ('pending', 'sending', 'sent', 'logged', 'failed', 'superseded', 'bounced', 'suppressed'))`.execute(
    db,
  );
  await sql`create index email_outbox_queue_priority_idx on email_outbox (priority, created_at, id)
    where status in ('pending', 'sending')`.execute(db);
  await sql`drop index if exists email_outbox_queue_idx`.execute(db);

  await sql`
    create table email_preferences (
      address text not null check (address = lower(address)),
      category text not null,
      unsubscribed_at timestamptz not null default now(),
      primary key (address, category)
    )`.execute(db);
  await sql`
    create table email_suppressions (
      address text primary key check (address = lower(address)),
      reason text not null check (reason in ('hard_bounce', 'complaint')),
      detail text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create function dealers_clear_suppression() returns trigger language plpgsql as $$
    begin
      if new.email is distinct from old.email then
        delete from email_suppressions where address = lower(new.email);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger dealers_clear_suppression after update of email on dealers
    for each row execute function dealers_clear_suppression()`.execute(db);
}
