import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 37, "Homeowner truth: dated claims" (decision 0930): the claims and incentives the site and the
// savings calculator state, edited by owners, each with its source and the dates it is in effect. A
// row with a ZIP or state scope is a state or utility incentive for homeowners there only. Shipped
// with the federal credit (IRC §25C/§25D), which ended for property placed in service after
// 31 December 2025 (Public Law 119-21): it stays on record and is no longer shown nor counted.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table homeowner_claims (
    id uuid primary key default gen_random_uuid(),
    text text not null check (length(text) between 1 and 300),
    kind text not null check (kind in ('claim', 'incentive')),
    percent numeric(5, 2) check (percent > 0 and percent <= 100),
    amount numeric(12, 2) check (amount > 0),
    cap numeric(12, 2) check (cap > 0),
    source text not null check (length(source) between 1 and 500),
    effective_from date,
    effective_until date,
    state text check (state ~ '^[A-Z]{2}$'),
    zip_prefixes text[] not null default '{}',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check (percent is null or amount is null),
    check (effective_from is null or effective_until is null or effective_from <= effective_until)
  )`.execute(db);
  await sql`insert into homeowner_claims (text, kind, percent, source, effective_until) values (
    'Federal tax credit (Energy Efficient Home Improvement and Residential Clean Energy credits)',
    'incentive', 30,
    'IRC §25C and §25D; ended for property placed in service after 31 December 2025 by Public Law 119-21 — https://www.irs.gov/credits-deductions/energy-efficient-home-improvement-credit',
    '2025-12-31'
  )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists homeowner_claims`.execute(db);
}
