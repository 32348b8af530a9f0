import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.

/** csv_cell as created here; 0304 drops it, its down() and the export's identity test recreate it. */
export const CREATE_CSV_CELL = sql`
    create or replace function csv_cell(v text) returns text
    language sql immutable parallel safe as $$
      select case
        when v is null then ''
        when left(v, 1) in ('=', '+', '-', '@', E'\\t', E'\\r') then
          case when v ~ E'[",\\r\\n]' then '"''' || replace(v, '"', '""') || '"' else '''' || v end
        when v ~ E'[",\\r\\n]' then '"' || replace(v, '"', '""') || '"'
        else v
      end
    $$`;
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  // One spreadsheet-safe CSV field: RFC 4180 quoting, and text starting with = + - @ tab or CR
  // gets a leading apostrophe (the OWASP neutralisation of formula injection). The export builds
  // its lines in the database, so 100k rows stream without a JavaScript object per cell. A single
  // SELECT with no FROM, so the planner inlines it into the query.
  await CREATE_CSV_CELL.execute(db);
  // The summary cards and the status tab counts read only these two columns: an index-only scan.
  await sql`create index dealers_status_tier_idx on dealers (status, tier)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists dealers_status_tier_idx`.execute(db);
  await sql`drop function if exists csv_cell(text)`.execute(db);
}
