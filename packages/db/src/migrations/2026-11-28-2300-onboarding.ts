import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 38 (decisions 0950-0953): the onboarding checklist of an approved dealer. The dealer agreement
// per tier, versioned (a new version is a new row; nothing is edited), and its clickwrap signatures,
// which nothing may update; the onboarding call booked from the portal; the initial inventory's
// required amounts (owner settings) and the payments admins record; the insurance certificate and
// contractor licence with their expiry reminders. `installer_gate_ok` (first created by the
// installation network's migration as `true`) becomes the real rule the job offers read.

const DEFAULT_AGREEMENT = (tier: string, extra: string) => `# ${tier} Dealer Agreement

This agreement is between the company and you, the ${tier} dealer named below.

## 1. Appointment
You are appointed as a non-exclusive ${tier} dealer of our products in the United States.

## 2. Your obligations
- Represent the products honestly and follow our brand and pricing guidelines.
- Keep customer information confidential and use it only to serve the customer.
${extra}
## 3. Commissions and payments
Commissions and payments follow the program terms published in your dealer dashboard.

## 4. Term and termination
Either party may end this agreement with 30 days' written notice. We may suspend it at once for a breach.

## 5. Signature
By typing your full name and ticking the box you sign this agreement electronically, with the same
effect as a handwritten signature.
`;

const INSTALLER_TERMS = `- Keep a valid general liability insurance certificate and contractor licence on file, and renew them before they expire.
- Install to the manufacturer's instructions and local codes.
`;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table agreement_versions (
    tier text not null check (tier in ('Affiliate', 'Authorized', 'Preferred')),
    version integer not null check (version > 0),
    text text not null,
    text_sha256 text not null,
    created_by text,
    created_at timestamptz not null default now(),
    primary key (tier, version)
  )`.execute(db);
  await sql`create table agreement_signatures (
    id uuid primary key default gen_random_uuid(),
    dealer_id uuid not null references dealers (id) on delete cascade,
    tier text not null,
    version integer not null,
    text_sha256 text not null,
    signature_name text not null,
    signed_at timestamptz not null default now(),
    ip_address text not null,
    user_agent text,
    foreign key (tier, version) references agreement_versions (tier, version),
    unique (dealer_id, tier, version)
  )`.execute(db);
  // A clickwrap record stands up later only if nothing about it can change after it is made.
  await sql`create function refuse_record_update() returns trigger language plpgsql as $$
    begin
      raise exception '% rows cannot be changed', tg_table_name using errcode = '55000';
    end $$`.execute(db);
  await sql`create trigger agreement_signatures_immutable before update on agreement_signatures
    for each row execute function refuse_record_update()`.execute(db);
  await sql`create trigger agreement_versions_immutable before update on agreement_versions
    for each row execute function refuse_record_update()`.execute(db);

  await sql`create table onboarding_settings (
    tier text primary key check (tier in ('Authorized', 'Preferred')),
    inventory_required numeric(12, 2) not null check (inventory_required >= 0),
    inventory_upfront numeric(12, 2) not null check (inventory_upfront >= 0 and inventory_upfront <= inventory_required),
    updated_by text,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`insert into onboarding_settings (tier, inventory_required, inventory_upfront)
    values ('Authorized', 5000.00, 5000.00), ('Preferred', 25000.00, 12500.00)`.execute(db);

  await sql`create table inventory_payments (
    id uuid primary key default gen_random_uuid(),
    dealer_id uuid not null references dealers (id) on delete cascade,
    amount numeric(12, 2) not null check (amount > 0),
    paid_on date not null,
    reference text not null,
    recorded_by text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index inventory_payments_dealer_idx on inventory_payments (dealer_id)`.execute(db);

  await sql`create table onboarding_calls (
    dealer_id uuid primary key references dealers (id) on delete cascade,
    call_date date not null,
    call_time text not null,
    time_zone text not null,
    starts_at timestamptz not null,
    status text not null default 'booked' check (status in ('booked', 'held', 'no_show')),
    reminder_sent_at timestamptz,
    reschedule_token_hash text unique,
    held_at timestamptz,
    marked_by text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  // The reminder sweep's walk: booked calls without a reminder, by start.
  await sql`create index onboarding_calls_reminder_idx on onboarding_calls (starts_at)
    where status = 'booked' and reminder_sent_at is null`.execute(db);

  await sql`create table dealer_compliance (
    dealer_id uuid primary key references dealers (id) on delete cascade,
    insurance_cert_url text not null,
    insurer text not null,
    insurance_expires_on date not null,
    license_number text not null,
    license_state text not null,
    license_expires_on date not null,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index dealer_compliance_insurance_idx on dealer_compliance (insurance_expires_on)`.execute(db);
  await sql`create index dealer_compliance_license_idx on dealer_compliance (license_expires_on)`.execute(db);
  // One row per reminder sent: the primary key makes each (document, expiry, lead time) once only.
  await sql`create table compliance_reminders (
    dealer_id uuid not null references dealers (id) on delete cascade,
    document text not null check (document in ('insurance', 'license')),
    expires_on date not null,
    days_before integer not null check (days_before in (30, 7)),
    sent_at timestamptz not null default now(),
    primary key (dealer_id, document, expires_on, days_before)
  )`.execute(db);

  // The admin's "onboarding incomplete / overdue" lists walk approved dealers, newest approval first.
  await sql`create index dealers_approval_date_idx on dealers (approval_date desc, id)
    where approval_date is not null`.execute(db);

  const seed = [
    ['Affiliate', ''],
    ['Authorized', INSTALLER_TERMS],
    ['Preferred', INSTALLER_TERMS],
  ] as const;
  for (const [tier, extra] of seed) {
    const text = DEFAULT_AGREEMENT(tier, extra);
    await sql`insert into agreement_versions (tier, version, text, text_sha256, created_by)
      values (${tier}, 1, ${text}, encode(sha256(convert_to(${text}, 'UTF8')), 'hex'), 'system')`.execute(db);
  }

  // The gate of job offers (issue 38): evaluated per candidate installer, so each read is one
  // primary-key or unique-index probe (dealers, dealer_compliance, agreement_versions' (tier,
  // version) for the current version, agreement_signatures' (dealer_id, tier, version)). A single
  // SELECT without FROM, stable: PostgreSQL inlines it into the caller's query.
  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$
      select exists (
        select 1
        from dealers d
        join dealer_compliance c on c.dealer_id = d.id
        where d.id = p_dealer
          and c.insurance_expires_on >= p_on
          and c.license_expires_on >= p_on
          and exists (
            select 1 from agreement_signatures s
            where s.dealer_id = d.id and s.tier = d.tier
              and s.version = (select max(v.version) from agreement_versions v where v.tier = d.tier)
          )
      )
    $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(db);
  await sql`drop index if exists dealers_approval_date_idx`.execute(db);
  await sql`drop table if exists compliance_reminders`.execute(db);
  await sql`drop table if exists dealer_compliance`.execute(db);
  await sql`drop table if exists onboarding_calls`.execute(db);
  await sql`drop table if exists inventory_payments`.execute(db);
  await sql`drop table if exists onboarding_settings`.execute(db);
  await sql`drop table if exists agreement_signatures`.execute(db);
  await sql`drop table if exists agreement_versions`.execute(db);
  await sql`drop function if exists refuse_record_update()`.execute(db);
}
