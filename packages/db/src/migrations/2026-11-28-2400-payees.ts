import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 39 (decisions 0960-0964): paying dealers for real. A dealer's payout details and W-9
// (payout_profiles; the TIN and the account number only as AES-256-GCM envelopes that name their
// key, their last 4 digits, and a keyed hash for the risk signals), the owner's payment settings
// (one row: the ACH originator and the 1099 payer), the 1099-NEC threshold per year when an owner
// set one, the "complete your payout details" reminder sent once per dealer, returned payments,
// and the downloads of the bank file, check register and tax report (who and when: the audit trail).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table payout_profiles (
    dealer_id uuid primary key references dealers (id) on delete cascade,
    legal_name text not null,
    tax_classification text not null,
    tin_type text not null check (tin_type in ('ssn', 'ein')),
    tin_enc text not null,
    tin_last4 text not null,
    tin_hash text not null,
    address_json text not null,
    method text not null check (method in ('ach', 'check')),
    routing_number text,
    account_enc text,
    account_last4 text,
    account_hash text,
    account_type text check (account_type in ('checking', 'savings')),
    certified_name text not null,
    certified_at timestamptz not null,
    certified_ip text,
    certified_ua text,
    certification_version text not null,
    returned_at timestamptz,
    return_code text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index payout_profiles_tin_hash_idx on payout_profiles (tin_hash)`.execute(db);
  await sql`create index payout_profiles_account_hash_idx on payout_profiles (account_hash)`.execute(db);
  await sql`create table payment_settings (
    id boolean primary key default true check (id),
    company_name text not null,
    company_id text not null,
    originating_routing text not null,
    originating_bank_name text not null,
    payer_name text not null,
    payer_tin text not null,
    payer_address_json text not null,
    updated_by text not null,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table tax_thresholds (
    year integer primary key,
    amount numeric(14, 2) not null,
    updated_by text not null,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table payee_reminders (
    dealer_id uuid primary key references dealers (id) on delete cascade,
    sent_at timestamptz not null
  )`.execute(db);
  await sql`create table payout_returns (
    id uuid primary key default gen_random_uuid(),
    payout_id uuid not null references payouts (id) on delete cascade,
    recruiter_dealer_id uuid not null references dealers (id) on delete cascade,
    return_code text not null,
    note text,
    amount numeric(14, 2) not null,
    created_by text not null,
    created_at timestamptz not null default now(),
    unique (payout_id, recruiter_dealer_id)
  )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists payout_returns`.execute(db);
  await sql`drop table if exists payee_reminders`.execute(db);
  await sql`drop table if exists tax_thresholds`.execute(db);
  await sql`drop table if exists payment_settings`.execute(db);
  await sql`drop table if exists payout_profiles`.execute(db);
}
