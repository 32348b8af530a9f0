import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The commission ledger's pages (queries/commissions.ts listLedger: the admin Commissions tab and a
// recruiter's own list) are newest first on (created_at, id) over rows with a recruiter. Without an
// index in that order each page sorted every matching row: 0.85 s for the tab's first page and
// 0.1 s for a recruiter with 2,000 commissions at 300,000 commissions (bench stage `partner`).
// These keyset indexes, partial on the ledger's own filter, let a page read its 20 rows and stop,
// unfiltered, by status or by recruiter, and serve a date range. Ascending like the Activity tab's
// (0654): a newest-first page walks them backward just as cheaply.
// docs/decisions/0740-bench-partner-and-admin-stages.md.
const INDEXES = [
  ['commissions_ledger_created_idx', 'created_at, id'],
  ['commissions_ledger_status_created_idx', 'status, created_at, id'],
  ['commissions_ledger_recruiter_created_idx', 'recruiter_dealer_id, created_at, id'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) {
    await sql`create index ${sql.ref(name)} on commissions (${sql.raw(columns)}) where recruiter_dealer_id is not null`.execute(
      db,
    );
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql`drop index if exists ${sql.ref(name)}`.execute(db);
}
