import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here (issue 14, docs/decisions/0610-admin-roles.md).

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  // Every admin made before roles existed could do everything: they stay owners.
  await db.schema
    .alterTable('admins')
    .addColumn('role', 'text', (c) =>
      c.notNull().defaultTo('owner').check(sql`role in ('owner', 'reviewer', 'viewer')`),
    )
    .execute();

  await db.schema
    .createTable('admin_invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'reviewer', 'viewer')`))
    .addColumn('invited_by', 'uuid', (c) => c.references('admins.id').onDelete('set null'))
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index admin_invitations_email_idx on admin_invitations (lower(email))`.execute(db);

  // The invitation link is a magic-link token like the dealers' setup link: hashed, single use, expiring.
  await sql`alter table magic_link_tokens alter column dealer_id drop not null`.execute(db);
  await db.schema
    .alterTable('magic_link_tokens')
    .addColumn('invitation_id', 'uuid', (c) => c.references('admin_invitations.id').onDelete('cascade'))
    .execute();
  await sql`alter table magic_link_tokens drop constraint magic_link_tokens_purpose_check`.execute(db);
  await sql`alter table magic_link_tokens add constraint magic_link_tokens_purpose_check
    check (purpose in ('setup', 'reset', 'admin_invite'))`.execute(db);
  await sql`alter table magic_link_tokens add constraint magic_link_tokens_owner_check
    check ((dealer_id is null) <> (invitation_id is null) and ((purpose = 'admin_invite') = (invitation_id is not null)))`.execute(
    db,
  );
  await db.schema
    .createIndex('magic_link_tokens_invitation_idx')
    .on('magic_link_tokens')
    .column('invitation_id')
    .execute();

  // The Activity tab: newest first, keyset on (created_at, id), filtered by actor, event, dealer or dates.
  await sql`create index audit_logs_created_id_idx on audit_logs (created_at desc, id desc)`.execute(db);
  await sql`create index audit_logs_actor_created_idx
    on audit_logs ((coalesce(details ->> 'actor', details ->> 'account')), created_at desc, id desc)`.execute(db);
  await sql`create index audit_logs_event_created_id_idx on audit_logs (event_type, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index audit_logs_dealer_created_id_idx on audit_logs (dealer_id, created_at desc, id desc)`.execute(
    db,
  );
}
