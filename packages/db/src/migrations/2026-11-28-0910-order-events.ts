import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 35, finding 10 (decision 0892): an order's state is decided by its events, whatever order
// they arrive in. Every event is kept (order_events, one row per order, status and event time: a
// retry of the same event is the same row); the order keeps the status its events decide and the
// event time that decided it (status_at). One order id is one order across sources: a second
// source's order with the same id exists only when an admin said it is a different order
// (declared_distinct), which the partial unique index holds.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column status_at timestamptz`.execute(db);
  await sql`update orders set status_at = case when status = 'placed' then ordered_at else updated_at end`.execute(db);
  await sql`alter table orders alter column status_at set not null`.execute(db);
  await sql`alter table orders add column declared_distinct boolean not null default false`.execute(db);
  // Orders recorded twice before this rule (one id, two sources) stay, the later ones marked distinct.
  await sql`update orders o set declared_distinct = true
    where exists (select 1 from orders f where f.external_order_id = o.external_order_id
      and (f.created_at, f.id) < (o.created_at, o.id))`.execute(db);
  await sql`create unique index orders_external_one_key on orders (external_order_id) where not declared_distinct`.execute(
    db,
  );

  await db.schema
    .createTable('order_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_ref', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('admin', 'webhook', 'import')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('placed', 'cancelled', 'refunded')`))
    .addColumn('event_at', 'timestamptz', (c) => c.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('order_events_order_status_at_key')
    .on('order_events')
    .columns(['order_ref', 'status', 'event_at'])
    .unique()
    .execute();
  await sql`insert into order_events (order_ref, source, status, event_at, recorded_by, received_at)
    select id, source, status, status_at, recorded_by, created_at from orders`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists order_events`.execute(db);
  await sql`drop index if exists orders_external_one_key`.execute(db);
  await sql`alter table orders drop column if exists declared_distinct, drop column if exists status_at`.execute(db);
}
