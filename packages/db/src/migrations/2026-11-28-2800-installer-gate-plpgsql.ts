import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// installer_gate_ok (migration 2300) as PL/pgSQL, the faster form decision 0951 measured. The SQL
// function's EXISTS sub-selects keep PostgreSQL from inlining it, and a SQL function that is not
// inlined is planned again in every statement that calls it; the router (nextInstaller) calls it a
// few times per job (decision 0915), so that planning was most of its cost: 200 statements of 5
// calls each, median 0.41 ms a statement as SQL, 0.13-0.19 ms as PL/pgSQL (plan kept per connection),
// on the shared 2-core machine. Same signature, same rule: the current (highest) agreement version
// of the dealer's tier signed, insurance and licence expiring on or after p_on.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language plpgsql stable as $$
    declare
      ok boolean;
    begin
      select true into ok
      from dealers d
      join dealer_compliance c on c.dealer_id = d.id
      join agreement_signatures s on s.dealer_id = d.id and s.tier = d.tier
      where d.id = p_dealer
        and c.insurance_expires_on >= p_on
        and c.license_expires_on >= p_on
        and s.version = (select max(v.version) from agreement_versions v where v.tier = d.tier);
      return coalesce(ok, false);
    end
    $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
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
