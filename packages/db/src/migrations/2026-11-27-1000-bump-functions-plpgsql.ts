import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The version triggers' two helpers (migrations 0950, 0960) were SQL functions. PostgreSQL 15
// inlines no SQL function whose body is an INSERT and keeps no plan for one from one statement to
// the next, so every call parsed and planned its insert again; the referral bump's plan looks at
// `dealers`, whose 15 indexes the planner reads each time. Every signup fires both (the dealer
// row's statement triggers): under `track_functions`, with both cores busy, the referral trigger
// took 260-315 µs a signup that named no recruiter and the admin one 132-165 µs, against 57-68 µs
// for the dealer counts' own insert. Now both are PL/pgSQL, which parses each once per connection
// (the referral bump's insert, when it names a recruiter, is still planned per call: decision
// 0830), and the referral bump returns before its insert when no recruiter is named.
// Statements unchanged.

const functions = (language: 'sql' | 'plpgsql') => {
  const body = (statement: string, plpgsqlFirst = '') =>
    language === 'sql' ? statement : `begin\n${plpgsqlFirst}${statement};\nend`;
  return [
    `create or replace function referral_versions_bump(recruiters uuid[]) returns void language ${language} as $$
      ${body(
        `insert into referral_versions (dealer_id, shard, n)
        select r, pg_backend_pid() % 64, count(*)
        from unnest(recruiters) r
        where r is not null and exists (select from dealers d where d.id = r)
        group by r order by r
        on conflict (dealer_id, shard) do update set n = referral_versions.n + excluded.n`,
        // No recruiter named (a signup without a referral): nothing to plan or write.
        'if coalesce(cardinality(array_remove(recruiters, null)), 0) = 0 then return; end if;\n',
      )}
    $$`,
    `create or replace function admin_versions_bump(src text) returns void language ${language} as $$
      ${body(`insert into admin_versions (source, shard, n) values (src, pg_backend_pid() % 64, 1)
        on conflict (source, shard) do update set n = admin_versions.n + 1`)}
    $$`,
  ];
};

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  for (const f of functions('plpgsql')) await sql.raw(f).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const f of functions('sql')) await sql.raw(f).execute(db);
}
