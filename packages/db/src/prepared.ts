import { createHash } from 'node:crypto';
import { type Compilable, CompiledQuery as Compiled, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Executor } from './queries/executor';
import type { DB } from './types';

const MARK = '\u0000param:';

/**
 * The SQL text of every compiled-once query and the name it is prepared under. A connection from
 * the pool (client.ts `namedStatements`) runs these as named prepared statements: PostgreSQL parses
 * and plans each once per connection instead of at every request, which for the hot joins took as
 * long as running them (bench/results.md plans: planning 0.5-1.1 ms, execution 0.2-0.9 ms).
 */
export const PREPARED_STATEMENTS = new Map<string, string>();

/**
 * The name a statement is prepared under: a hash of its SQL text (issue 46). Two instances, or two
 * builds, behind one pooler can then never give one name to two statements; numbering them in
 * first-use order did, and a connection shared through a pooler then ran the wrong statement or
 * failed ("prepared statement dn_q1 already exists"). 64 bits of SHA-256: no collision among the
 * few hundred texts a process names.
 */
export function statementName(sqlText: string): string {
  return `dn_q_${createHash('sha256').update(sqlText).digest('hex').slice(0, 16)}`;
}

/**
 * A query built and compiled once, then run with fresh parameter values each time. For the
 * statements that run on every request (the session read, the polled endpoints): building and
 * compiling a Kysely query costs more CPU than PostgreSQL spends answering them. While building,
 * each named parameter is a placeholder string, so the compiled parameter list says where its
 * value goes; every other value stays as compiled. Results pass through the database's plugins
 * as usual. Compiled on first use with that database (PostgreSQL and PGlite compile alike).
 * See docs/decisions/0504-one-statement-per-poll.md.
 */
export function prepareQuery<K extends string, R>(
  names: readonly K[],
  build: (db: Kysely<DB>, params: Record<K, string>) => Compilable<R>,
): (db: Kysely<DB>, values: Record<K, unknown>) => Promise<QueryResult<R>> {
  let compiled: CompiledQuery<R> | undefined;
  let slots: (K | null)[] = [];
  return async (db, values) => {
    if (!compiled) {
      const marks = Object.fromEntries(names.map((n) => [n, `${MARK}${n}`])) as Record<K, string>;
      const query = build(db, marks).compile();
      const found = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(MARK) ? (p.slice(MARK.length) as K) : null,
      );
      const missing = names.filter((n) => !found.includes(n));
      if (missing.length) throw new Error(`prepareQuery: the query does not use ${missing.join(', ')}`);
      compiled = query;
      slots = found;
      if (!PREPARED_STATEMENTS.has(query.sql)) PREPARED_STATEMENTS.set(query.sql, statementName(query.sql));
    }
    const parameters = compiled.parameters.map((p, i) => {
      const slot = slots[i];
      return slot ? values[slot] : p;
    });
    return db.executeQuery(Compiled.raw(compiled.sql, parameters) as CompiledQuery<R>);
  };
}

/** At most this many texts are named by runView; further ones run unnamed, as before. */
export const MAX_VIEW_STATEMENTS = 100;
let viewStatements = 0;

/**
 * Runs a statement with every value written into its SQL (sql.lit), as a view a page polls: the
 * admin console's first page of a tab and its counts, the Affiliate Tracking poll. A text with no
 * parameters is named like the compiled-once queries, so each connection parses and plans it once;
 * with no parameters the plan PostgreSQL keeps is the one it would make for these values, whatever
 * their skew (decision 0504's reason to name nothing else). Only statements whose values come from
 * a closed set (enums, a bounded page size) belong here, and at most MAX_VIEW_STATEMENTS texts are
 * named per process. Resolves with the rows, through the database's plugins as usual.
 */
export async function runView<R>(db: Executor, query: { compile(db: Executor): CompiledQuery<R> }): Promise<R[]> {
  const compiled = query.compile(db);
  if (
    compiled.parameters.length === 0 &&
    !PREPARED_STATEMENTS.has(compiled.sql) &&
    viewStatements < MAX_VIEW_STATEMENTS
  ) {
    viewStatements++;
    PREPARED_STATEMENTS.set(compiled.sql, statementName(compiled.sql));
  }
  return (await db.executeQuery(compiled)).rows;
}

const compiledViews = new Map<string, CompiledQuery>();

/**
 * A view's statement (runView) built and compiled once per `key`, then reused: for the admin
 * console's polls, building and compiling the Kysely query took more of the process's time than
 * anything but the socket (bench/findings.md). `key` must name the statement and every value
 * written into it (the caller's closed-set filter); at most MAX_VIEW_STATEMENTS keys are kept,
 * further ones are built each time, as before.
 */
export function viewOnce<R>(
  db: Executor,
  key: string,
  build: () => { compile(db: Executor): CompiledQuery<R> },
): { compile(): CompiledQuery<R> } {
  let compiled = compiledViews.get(key) as CompiledQuery<R> | undefined;
  if (!compiled) {
    compiled = build().compile(db);
    if (compiledViews.size < MAX_VIEW_STATEMENTS) compiledViews.set(key, compiled);
  }
  const once = compiled;
  return { compile: () => once };
}
