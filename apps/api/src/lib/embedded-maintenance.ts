import type { Database } from '@dn/db';
import { maintainDueTables } from '@dn/db/queries/maintenance';
import type { FastifyBaseLogger } from 'fastify';

/** How often the embedded database's tables are looked at: autovacuum's own default naptime. */
const EMBEDDED_MAINTENANCE_MS = 60_000;

/**
 * The embedded database's autovacuum (decision 0840): every `everyMs`, the tables PostgreSQL's
 * autovacuum would have vacuumed or analyzed are, one at a time, and each is logged with how long
 * it held the database. One pass at a time. On PostgreSQL (DATABASE_URL) the server's own
 * autovacuum does it: nothing is started, and null is returned.
 */
export function startEmbeddedMaintenance(
  database: Pick<Database, 'db' | 'kind'>,
  log: FastifyBaseLogger,
  everyMs = EMBEDDED_MAINTENANCE_MS,
): { stop(): Promise<void> } | null {
  if (database.kind !== 'pglite') return null;
  let running: Promise<void> | null = null;
  const pass = () => {
    running ??= maintainDueTables(database.db)
      .then((tables) => {
        if (tables.length > 0) log.info({ tables }, 'embedded database: tables vacuumed or analyzed');
      })
      .catch((err) => log.warn({ err }, 'embedded database maintenance failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
