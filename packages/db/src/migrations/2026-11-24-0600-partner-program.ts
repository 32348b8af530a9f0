import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here (issue 13, docs/decisions/0601-partner-program.md).
const TIERS = sql`('Affiliate', 'Authorized', 'Preferred')`;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('dealer_id', 'uuid', (c) => c.notNull().references('dealers.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('admin', 'webhook', 'import')`))
    .addColumn('external_order_id', 'text', (c) => c.notNull().check(sql`length(external_order_id) between 1 and 100`))
    .addColumn('amount', sql`numeric(12, 2)`, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD').check(sql`currency = 'USD'`))
    .addColumn('ordered_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('placed').check(sql`status in ('placed', 'cancelled', 'refunded')`),
    )
    .addColumn('recorded_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The idempotency key: the same order sent twice, even at once, is one row.
  await db.schema
    .createIndex('orders_source_external_key')
    .on('orders')
    .columns(['source', 'external_order_id'])
    .unique()
    .execute();
  await db.schema.createIndex('orders_dealer_ordered_idx').on('orders').columns(['dealer_id', 'ordered_at']).execute();

  // Versioned: a change inserts a new version; commissions keep the version they were computed with.
  await db.schema
    .createTable('commission_rules')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tier', 'text', (c) => c.notNull().check(sql`tier in ${TIERS}`))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('percent', 'fixed')`))
    .addColumn('value', sql`numeric(10, 2)`, (c) => c.notNull().check(sql`value >= 0`))
    .addColumn('applies_to', 'text', (c) => c.notNull().check(sql`applies_to in ('first', 'all')`))
    .addColumn('months', 'integer', (c) => c.check(sql`months between 1 and 120`))
    .addColumn('hold_days', 'integer', (c) => c.notNull().defaultTo(30).check(sql`hold_days between 0 and 365`))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('commission_rules_percent_max', sql`type <> 'percent' or value <= 100`)
    .execute();
  await db.schema
    .createIndex('commission_rules_tier_version_key')
    .on('commission_rules')
    .columns(['tier', 'version'])
    .unique()
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created').check(sql`status in ('created', 'paid')`))
    .addColumn('minimum', sql`numeric(10, 2)`, (c) => c.notNull())
    .addColumn('total', sql`numeric(12, 2)`, (c) => c.notNull())
    .addColumn('recruiter_count', 'integer', (c) => c.notNull())
    .addColumn('commission_count', 'integer', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('paid_by', 'text')
    .addColumn('paid_at', 'timestamptz')
    .execute();

  // The spec's commissions table gains the ledger's columns. It was never written before this issue.
  await sql`alter table commissions drop constraint if exists commissions_status_check`.execute(db);
  await db.schema
    .alterTable('commissions')
    .addColumn('kind', 'text', (c) =>
      c.notNull().defaultTo('commission').check(sql`kind in ('commission', 'clawback')`),
    )
    .addColumn('recruiter_dealer_id', 'uuid', (c) => c.references('dealers.id').onDelete('cascade'))
    .addColumn('order_ref', 'uuid', (c) => c.references('orders.id').onDelete('cascade'))
    .addColumn('rule_id', 'uuid', (c) => c.references('commission_rules.id').onDelete('restrict'))
    .addColumn('order_amount', sql`numeric(12, 2)`)
    .addColumn('ordered_at', 'timestamptz')
    .addColumn('hold_until', 'timestamptz')
    .addColumn('void_reason', 'text')
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'timestamptz')
    .addColumn('payout_id', 'uuid', (c) => c.references('payouts.id').onDelete('set null'))
    .addColumn('paid_at', 'timestamptz')
    .execute();
  await sql`alter table commissions add constraint commissions_status_check check (status in ('pending', 'approved', 'paid', 'voided', 'cancelled'))`.execute(
    db,
  );
  // Never negative except as an explicit clawback entry.
  await sql`alter table commissions add constraint commissions_amount_sign_check check ((kind = 'commission' and amount >= 0) or (kind = 'clawback' and amount <= 0))`.execute(
    db,
  );
  await sql`create unique index commissions_order_kind_key on commissions (order_ref, kind) where order_ref is not null`.execute(
    db,
  );
  await db.schema
    .createIndex('commissions_recruiter_dealer_idx')
    .on('commissions')
    .columns(['recruiter_dealer_id', 'status', 'created_at desc'])
    .execute();
  await db.schema
    .createIndex('commissions_status_created_idx')
    .on('commissions')
    .columns(['status', 'created_at desc'])
    .execute();
  await db.schema.createIndex('commissions_payout_idx').on('commissions').column('payout_id').execute();
}
