import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * The embedded database's autovacuum (decision 0840). PGlite is PostgreSQL in a single session:
 * it keeps the table statistics autovacuum reads, but no autovacuum worker ever reads them, so
 * without this a long-lived embedded install never vacuums (dead rows and index entries pile up
 * in the outbox, sessions and rate limits, and every scan walks them) and never analyzes (the
 * planner keeps the statistics of the day the tables were empty). On PostgreSQL the server's own
 * autovacuum does this work, and the app does not run it.
 *
 * A table is due by autovacuum's default rule (PostgreSQL's autovacuum_* settings): vacuumed
 * when its dead rows pass 50 + 20% of its rows, or the rows inserted since its last vacuum pass
 * 1,000 + 20% (so an insert-only table gets its visibility map and frozen rows too); analyzed
 * when the rows changed since its last analyze pass 50 + 10%.
 */
const RULE = {
  vacuum: { base: 50, share: 0.2 },
  vacuumInserts: { base: 1_000, share: 0.2 },
  analyze: { base: 50, share: 0.1 },
} as const;

export interface TableDue {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

interface TableActivity {
  table: string;
  /** The table's rows as the planner knows them (-1 before its first vacuum or analyze). */
  reltuples: number;
  liveRows: number;
  deadRows: number;
  changedSinceAnalyze: number;
  insertedSinceVacuum: number;
}

/** What a table's counts make due, by autovacuum's rule (RULE). */
export function dueByRule(t: TableActivity): TableDue {
  const rows = Math.max(t.reltuples, t.liveRows, 0);
  const over = (n: number, r: { base: number; share: number }) => n > r.base + r.share * rows;
  return {
    table: t.table,
    vacuum: over(t.deadRows, RULE.vacuum) || over(t.insertedSinceVacuum, RULE.vacuumInserts),
    analyze: over(t.changedSinceAnalyze, RULE.analyze),
  };
}

/**
 * The tables of the current schema that are due, smallest first (a small table's turn is short,
 * and the queue it holds up is the same single session). The session's own counts are flushed
 * first: PGlite's only session would otherwise report them late.
 */
export async function tablesDueForMaintenance(db: Executor): Promise<TableDue[]> {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<TableActivity>`
    select s.relname as table, c.reltuples::float8 as reltuples, s.n_live_tup::float8 as "liveRows",
      s.n_dead_tup::float8 as "deadRows", s.n_mod_since_analyze::float8 as "changedSinceAnalyze",
      s.n_ins_since_vacuum::float8 as "insertedSinceVacuum"
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
    order by pg_relation_size(s.relid), s.relname`.execute(db);
  return rows.map(dueByRule).filter((t) => t.vacuum || t.analyze);
}

/** Vacuums and/or analyzes one table (outside any transaction: VACUUM cannot run in one). */
async function maintainTable(db: Executor, t: TableDue): Promise<void> {
  if (t.vacuum) await sql`vacuum (analyze ${sql.raw(t.analyze ? 'true' : 'false')}) ${sql.table(t.table)}`.execute(db);
  else if (t.analyze) await sql`analyze ${sql.table(t.table)}`.execute(db);
}

/** One pass: every due table in turn; resolves with what was done and how long each took. */
export async function maintainDueTables(db: Executor): Promise<(TableDue & { ms: number })[]> {
  const done: (TableDue & { ms: number })[] = [];
  for (const t of await tablesDueForMaintenance(db)) {
    const started = performance.now();
    await maintainTable(db, t);
    done.push({ ...t, ms: Math.round(performance.now() - started) });
  }
  return done;
}
