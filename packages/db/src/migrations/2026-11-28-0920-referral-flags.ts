import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 35, finding 6 (decision 0895): a referral whose signup matches its recruiter (phone, the
// signup's device cookie, an IP of the recruiter's sign-ins, the business address) is attributed
// but flagged here, one row per referred dealer, with the signals and a reason; its commissions are
// earned `held`, which `ledger_payable` (migration 0860: approved only) never counts, until an owner
// clears the flag (held -> pending) or voids it (held -> voided).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table referral_flags (
    id uuid primary key default gen_random_uuid(),
    referred_dealer_id uuid not null unique references dealers (id) on delete cascade,
    recruiter_dealer_id uuid not null references dealers (id) on delete cascade,
    signals text[] not null,
    reason text not null,
    status text not null default 'open' check (status in ('open', 'cleared', 'voided')),
    created_at timestamptz not null default now(),
    decided_by text,
    decided_at timestamptz
  )`.execute(db);
  await sql`create index referral_flags_recruiter_idx on referral_flags (recruiter_dealer_id)`.execute(db);
  await sql`alter table commissions drop constraint commissions_status_check`.execute(db);
  await sql`alter table commissions add constraint commissions_status_check
    check (status in ('pending', 'held', 'approved', 'paid', 'voided', 'cancelled'))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`update commissions set status = 'pending' where status = 'held'`.execute(db);
  await sql`alter table commissions drop constraint commissions_status_check`.execute(db);
  await sql`alter table commissions add constraint commissions_status_check
    check (status in ('pending', 'approved', 'paid', 'voided', 'cancelled'))`.execute(db);
  await sql`drop table if exists referral_flags`.execute(db);
}
