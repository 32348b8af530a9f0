import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMaintenance } from '../src/lib/embedded-maintenance';

/** The embedded database's autovacuum, as the server process starts it (decision 0840). */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

/** A logger whose lines are kept, parsed. */
function keptLog() {
  const lines: { msg: string; tables?: { table: string; vacuum: boolean; analyze: boolean; ms: number }[] }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

const lastVacuum = async () => {
  await sql`select pg_stat_force_next_flush()`.execute(t.db);
  const { rows } = await sql<{ at: Date | null }>`
    select last_vacuum as at from pg_stat_user_tables where relname = 'rate_limits' and schemaname = current_schema()`.execute(
    t.db,
  );
  return rows[0]?.at ?? null;
};

describe(`the embedded database's maintenance (${process.env.TEST_DB === 'pglite' ? 'PGlite' : 'PostgreSQL'})`, () => {
  it('vacuums a rewritten table on the embedded database, and on PostgreSQL leaves it to autovacuum', async () => {
    await sql`insert into rate_limits (key, count, reset_at)
      select 'maint:' || g, 1, now() + interval '1 hour' from generate_series(1, 300) g`.execute(t.db);
    await sql`update rate_limits set count = count + 1 where key like 'maint:%'`.execute(t.db);
    await sql`update rate_limits set count = count + 1 where key like 'maint:%'`.execute(t.db);
    const { log, lines } = keptLog();

    const m = startEmbeddedMaintenance(t, log, 20);
    if (t.kind === 'postgres') {
      expect(m).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
      expect(lines).toEqual([]);
      expect(await lastVacuum()).toBeNull();
      return;
    }

    expect(m).not.toBeNull();
    // A limit that catches a pass that never comes; a busy machine may take a while (issue 46).
    const deadline = Date.now() + 90_000;
    const done = () => lines.flatMap((l) => l.tables ?? []).find((x) => x.table === 'rate_limits');
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await m!.stop();
    expect(lines[0]?.msg).toBe('embedded database: tables vacuumed or analyzed');
    expect(done()).toMatchObject({ table: 'rate_limits', vacuum: true, analyze: true });
    const at = await lastVacuum();
    expect(at).not.toBeNull();

    // Stopped: no further pass, even with a table due again.
    await sql`update rate_limits set count = count + 1 where key like 'maint:%'`.execute(t.db);
    await sql`update rate_limits set count = count + 1 where key like 'maint:%'`.execute(t.db);
    const seen = lines.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.length).toBe(seen);
    expect(await lastVacuum()).toEqual(at);
  });
});
