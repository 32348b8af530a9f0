import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 45 (decision 1020): payout details change visibly, and a batch pays what it was made with.
// - payout_profiles.destination_changed_at: when the method, routing number or account last changed
//   (null: never since the first save); a new account is not paid for 3 days after it.
// - payout_payees: each payee's method and account as they were when the batch was created; the ACH
//   file and the check register read these rows, so a payee is in exactly one of them, and a change
//   after the batch reaches only later batches. Existing batches get their rows from the details on
//   file now (what their files were made from until today).
// - unrouted_alerts: the jobs that became unrouted since the team's last digest (decision 1022), and
//   unrouted_digest, one row, when the last digest went (at most one every 15 minutes).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payout_profiles add column destination_changed_at timestamptz`.execute(db);
  await sql`create table payout_payees (
    payout_id uuid not null references payouts (id) on delete cascade,
    recruiter_dealer_id uuid not null references dealers (id) on delete cascade,
    method text not null check (method in ('ach', 'check')),
    legal_name text not null,
    individual boolean not null,
    routing_number text,
    account_enc text,
    account_last4 text,
    account_type text check (account_type in ('checking', 'savings')),
    address_json text not null,
    primary key (payout_id, recruiter_dealer_id),
    check (method = 'check' or (routing_number is not null and account_enc is not null))
  )`.execute(db);
  await sql`insert into payout_payees
      (payout_id, recruiter_dealer_id, method, legal_name, individual, routing_number, account_enc, account_last4,
       account_type, address_json)
    select distinct on (c.payout_id, c.recruiter_dealer_id)
      c.payout_id, c.recruiter_dealer_id,
      case when p.method = 'ach' and p.account_enc is not null and p.routing_number is not null then 'ach' else 'check' end,
      p.legal_name, p.tax_classification = 'individual',
      case when p.method = 'ach' and p.account_enc is not null then p.routing_number end,
      case when p.method = 'ach' and p.routing_number is not null then p.account_enc end,
      case when p.method = 'ach' then p.account_last4 end,
      case when p.method = 'ach' then p.account_type end,
      p.address_json
    from commissions c
    join payout_profiles p on p.dealer_id = c.recruiter_dealer_id
    where c.payout_id is not null and c.recruiter_dealer_id is not null`.execute(db);
  await sql`create table unrouted_alerts (
    job_id uuid primary key references jobs (id) on delete cascade,
    queued_at timestamptz not null
  )`.execute(db);
  await sql`create table unrouted_digest (
    id boolean primary key default true check (id),
    last_sent_at timestamptz not null
  )`.execute(db);
  await sql`insert into unrouted_digest (id, last_sent_at) values (true, '1970-01-01T00:00:00Z')`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists unrouted_digest`.execute(db);
  await sql`drop table if exists unrouted_alerts`.execute(db);
  await sql`drop table if exists payout_payees`.execute(db);
  await sql`alter table payout_profiles drop column if exists destination_changed_at`.execute(db);
}
