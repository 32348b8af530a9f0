import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here (issue 14, docs/decisions/0620-bulk-review-and-undo.md).

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  // One admin decision (single or bulk): what it did, by whom, until when it can be undone.
  await db.schema
    .createTable('admin_actions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('admin_id', 'uuid')
    .addColumn('admin_username', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('approve', 'reject', 'status', 'tier')`))
    .addColumn('params', 'jsonb', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('cursor', 'uuid')
    .addColumn('done', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('undo_until', 'timestamptz', (c) => c.notNull())
    .addColumn('undone_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('admin_actions_admin_idx')
    .on('admin_actions')
    .columns(['admin_id', 'created_at'])
    .execute();

  // The before-state of each dealer an action changed, and the updated_at the action left:
  // undo restores a row only where nothing else changed it since.
  await db.schema
    .createTable('admin_action_items')
    .addColumn('action_id', 'uuid', (c) => c.notNull().references('admin_actions.id').onDelete('cascade'))
    .addColumn('dealer_id', 'uuid', (c) => c.notNull().references('dealers.id').onDelete('cascade'))
    .addColumn('before_status', 'text', (c) => c.notNull())
    .addColumn('before_tier', 'text', (c) => c.notNull())
    .addColumn('before_access_granted', 'boolean', (c) => c.notNull())
    .addColumn('before_approval_date', 'timestamptz')
    .addColumn('before_approved_by', 'text')
    .addColumn('before_rejection_reason', 'text')
    .addColumn('after_updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('admin_action_items_pkey', ['action_id', 'dealer_id'])
    .execute();
  await db.schema.createIndex('admin_action_items_dealer_idx').on('admin_action_items').column('dealer_id').execute();

  // The emails an action causes wait out its undo window (next_attempt_at is their not-before
  // time); undo deletes them by this column.
  await db.schema
    .alterTable('email_outbox')
    .addColumn('action_id', 'uuid', (c) => c.references('admin_actions.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('email_outbox_action_idx')
    .on('email_outbox')
    .column('action_id')
    .where(sql.ref('action_id'), 'is not', null)
    .execute();

  // Per-admin preferences (the export's column picker).
  await db.schema
    .createTable('admin_preferences')
    .addColumn('admin_id', 'uuid', (c) => c.primaryKey().references('admins.id').onDelete('cascade'))
    .addColumn('export_columns', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
