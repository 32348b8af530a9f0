import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here. Enum values are repeated on purpose so that
// a later change of the app's constants cannot silently rewrite history.
const TIERS = sql`('Affiliate', 'Authorized', 'Preferred')`;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admins')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull().defaultTo('Admin'))
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index admins_username_lower_key on admins (lower(username))`.execute(db);

  await db.schema
    .createTable('dealers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tier', 'text', (c) => c.notNull().check(sql`tier in ${TIERS}`))
    .addColumn('recruiter_id', 'text')
    .addColumn('referred_by', 'uuid', (c) => c.references('dealers.id').onDelete('set null'))
    .addColumn('referral_type', 'text', (c) => c.check(sql`referral_type in ('automatic', 'manual')`))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password', 'text')
    .addColumn('phone_e164', 'text', (c) => c.notNull())
    .addColumn('address_json', 'jsonb')
    .addColumn('entity_type', 'text', (c) =>
      c.check(sql`entity_type in ('LLC', 'Corporation', 'Partnership', 'Sole Proprietorship', 'Other')`),
    )
    .addColumn('licensed_installers', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('crew_count', 'integer', (c) => c.check(sql`crew_count >= 0`))
    .addColumn('insurance_cert_url', 'text')
    .addColumn('maintain_inventory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sales_reps', 'integer', (c) => c.check(sql`sales_reps >= 0`))
    .addColumn('monthly_volume', 'integer', (c) => c.check(sql`monthly_volume >= 0`))
    .addColumn('crm_name', 'text', (c) =>
      c.check(sql`crm_name in ('HubSpot', 'Salesforce', 'Pipedrive', 'JobTread', 'Custom', 'None', 'Other')`),
    )
    .addColumn('permitting_capable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('home_performance', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('product_verticals', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('onboarding_call_ok', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('dealer_agreement_url', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'approved', 'rejected', 'active', 'inactive', 'suspended')`),
    )
    .addColumn('access_granted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('approval_date', 'timestamptz')
    .addColumn('approved_by', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('total_orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_revenue', sql`numeric(12, 2)`, (c) => c.notNull().defaultTo(0))
    .addColumn('last_order_date', 'timestamptz')
    .addColumn('average_order_value', sql`numeric(10, 2)`, (c) => c.notNull().defaultTo(0))
    .addColumn('external_crm_id', 'text')
    .addColumn('ua_hash', 'text')
    .addColumn('original_payload', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index dealers_email_lower_key on dealers (lower(email))`.execute(db);
  await db.schema
    .createIndex('dealers_status_created_idx')
    .on('dealers')
    .columns(['status', 'created_at desc'])
    .execute();
  await db.schema.createIndex('dealers_tier_created_idx').on('dealers').columns(['tier', 'created_at desc']).execute();
  await db.schema.createIndex('dealers_created_idx').on('dealers').columns(['created_at desc', 'id']).execute();
  await db.schema.createIndex('dealers_referred_by_idx').on('dealers').column('referred_by').execute();
  await db.schema.createIndex('dealers_recruiter_id_idx').on('dealers').column('recruiter_id').execute();

  await db.schema
    .createTable('call_schedules')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('preferred_date', 'text', (c) => c.notNull())
    .addColumn('preferred_time', 'text', (c) =>
      c.notNull().check(sql`preferred_time in ('morning', 'afternoon', 'evening')`),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('scheduled').check(sql`status in ('scheduled', 'completed', 'cancelled')`),
    )
    .addColumn('notes', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One booking per email, date and window, unless it was cancelled.
  await sql`create unique index call_schedules_email_slot_key on call_schedules (lower(email), preferred_date, preferred_time) where status <> 'cancelled'`.execute(
    db,
  );
  await db.schema
    .createIndex('call_schedules_status_date_idx')
    .on('call_schedules')
    .columns(['status', 'preferred_date'])
    .execute();
  await db.schema.createIndex('call_schedules_created_idx').on('call_schedules').column('created_at').execute();
  await sql`create index call_schedules_email_lower_idx on call_schedules (lower(email))`.execute(db);

  await db.schema
    .createTable('affiliate_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('recruiter_id', 'text', (c) => c.notNull())
    .addColumn('dealer_id', 'uuid', (c) => c.notNull().unique().references('dealers.id').onDelete('cascade'))
    .addColumn('affiliate_code', 'text', (c) => c.notNull().unique())
    .addColumn('total_referrals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index affiliate_links_recruiter_id_lower_key on affiliate_links (lower(recruiter_id))`.execute(
    db,
  );

  await db.schema
    .createTable('commissions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('recruiter_id', 'text', (c) => c.notNull())
    .addColumn('referred_dealer_id', 'uuid', (c) => c.notNull().references('dealers.id').onDelete('cascade'))
    .addColumn('commission_type', 'text', (c) => c.notNull())
    .addColumn('amount', sql`numeric(10, 2)`)
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'approved', 'paid', 'cancelled')`),
    )
    .addColumn('order_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('commissions_recruiter_idx').on('commissions').column('recruiter_id').execute();
  await db.schema
    .createIndex('commissions_referred_dealer_idx')
    .on('commissions')
    .column('referred_dealer_id')
    .execute();

  await db.schema
    .createTable('magic_link_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // SHA-256 of the token: the token itself is never stored.
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('dealer_id', 'uuid', (c) => c.notNull().references('dealers.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('setup').check(sql`purpose in ('setup', 'reset')`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('magic_link_tokens_dealer_idx')
    .on('magic_link_tokens')
    .columns(['dealer_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('landing_videos')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('video_key', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('vimeo_embed_code', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('first_order_forms')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tier', 'text', (c) => c.notNull().unique().check(sql`tier in ${TIERS}`))
    .addColumn('form_url', 'text')
    .addColumn('is_required', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('audit_logs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_type', 'text')
    .addColumn('category', 'text')
    .addColumn('recruiter_id', 'text')
    .addColumn('dealer_id', 'uuid')
    .addColumn('session_id', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('client_hash', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb')
    .addColumn('success', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('error_message', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('referrer', 'text')
    .addColumn('user_agent_parsed', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // No foreign key on dealer_id: the trail must outlive the dealer (clear-all keeps it).
  await db.schema
    .createIndex('audit_logs_dealer_created_idx')
    .on('audit_logs')
    .columns(['dealer_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('audit_logs_recruiter_created_idx')
    .on('audit_logs')
    .columns(['recruiter_id', 'created_at'])
    .execute();
  await db.schema.createIndex('audit_logs_created_idx').on('audit_logs').column('created_at').execute();
  await db.schema
    .createIndex('audit_logs_event_type_idx')
    .on('audit_logs')
    .columns(['event_type', 'created_at'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('sid', 'text', (c) => c.primaryKey())
    .addColumn('sess', 'jsonb', (c) => c.notNull())
    .addColumn('expire', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_expire_idx').on('sessions').column('expire').execute();
  await sql`create index sessions_user_idx on sessions ((sess ->> 'userId'))`.execute(db);

  await db.schema
    .createTable('email_outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('dealer_id', 'uuid')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'sending', 'sent', 'logged', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('email_outbox_due_idx')
    .on('email_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('email_outbox_dealer_idx').on('email_outbox').column('dealer_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_reset_idx').on('rate_limits').column('reset_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'rate_limits',
    'email_outbox',
    'sessions',
    'audit_logs',
    'first_order_forms',
    'landing_videos',
    'magic_link_tokens',
    'commissions',
    'affiliate_links',
    'call_schedules',
    'dealers',
    'admins',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
