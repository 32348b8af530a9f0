import { type Database, migrateToLatest, openDatabase, seed } from '@dn/db';
import pino from 'pino';
import { buildApp, defaultWebRoot, LOG_REDACT } from './app';
import { ConfigError, loadConfig } from './env';
import { FileClock } from './lib/clock';
import { startEmbeddedMaintenance } from './lib/embedded-maintenance';
import { startStartingServer } from './lib/starting-server';
import { lowerThreadPoolPriority } from './lib/threadpool';
import { ensureAdmin } from './services/accounts/admins';
import { Scheduler } from './services/scheduler/scheduler';

const bootLog = pino({ redact: LOG_REDACT });

/** Request lines are written out in blocks of this many bytes... */
const LOG_BUFFER_BYTES = 4096;
/** ...or this often when fewer have accumulated, so a quiet server's lines are never held long. */
const LOG_FLUSH_MS = 1000;

async function main() {
  // `pnpm start --check`: every setting validated (the same parse as a start), then exit 0 or 1.
  if (process.argv.includes('--check')) {
    const checked = loadConfig(process.env, { check: true }); // a ConfigError exits 1 below
    const where = checked.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${checked.dataDir}`;
    process.stdout.write(`Configuration is valid (${checked.nodeEnv}; database: ${where}).\n`);
    process.exit(0);
  }
  const config = loadConfig();
  // Password hashing (libuv's pool) yields to the event loop when the CPU is contended.
  const poolThreadsLowered = await lowerThreadPoolPriority();
  // Until the app listens, the port says the process is starting (issue 46): /healthz 200,
  // /readyz 503, while this instance migrates or waits for another's migration.
  let phase = 'opening the database';
  const starting =
    config.port === 0 ? null : await startStartingServer({ port: config.port, host: config.host, phase: () => phase });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize: config.databasePoolSize,
    transactionPooler: config.databaseTransactionPooler,
    onPoolError: (err) => bootLog.warn({ err }, 'idle database connection lost; the pool will reconnect'),
  });
  keepConnectionErrorsLogged(database);
  phase = 'migrating the database';
  await migrate(config, database);
  phase = 'preparing the database';
  await seed(database.db);
  const admin = await ensureAdmin(database.db, { username: config.adminUsername, password: config.adminPassword });
  await starting?.close();

  // The request lines go to stdout without blocking the event loop, 4 KB at a time (about 20
  // lines), and at least every LOG_FLUSH_MS when quiet; pino writes what is left on exit. One
  // write per line cost each request a trip to libuv's pool. Measured on the hottest poll:
  // bench/findings.md, logging.
  const logStream = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  const app = await buildApp({
    config,
    database,
    webRoot: config.webDist ?? defaultWebRoot(),
    logger: { stream: logStream },
    // The browser suite's shifted clock (TEST_CLOCK_FILE; env.ts refuses it in production unless allowed).
    ...(config.testClockFile ? { clock: new FileClock(config.testClockFile) } : {}),
  });
  if (config.testClockFile)
    app.log.warn({ file: config.testClockFile }, 'the clock reads its offset from TEST_CLOCK_FILE');
  // The sender looks for due mail (a decision's, once its undo window has passed, when no kick came)
  // every 10 s, or at each scheduler tick when those are closer together (the browser suite's 1 s).
  const schedulerMs = (config.schedulerIntervalSec ?? 15) * 1000;
  app.deps.mail.start(Math.min(10_000, schedulerMs));
  // The durable scheduler runs every sweep (services/scheduler/sweeps.ts), one instance at a time.
  const scheduler = new Scheduler(app.deps);
  scheduler.start(schedulerMs);
  const maintenance = startEmbeddedMaintenance(database, app.log);

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  app.log.info({ url: config.publicUrl, database: where, poolThreadsLowered }, 'dealer network is ready');
  // Printed for the person who started it, not only logged: this is how they sign in. The log's
  // lines so far go first.
  logStream.flushSync();
  process.stdout.write(`\n  Dealer Network is running at ${config.publicUrl}\n  Database: ${where}\n`);
  if (admin.generatedPassword) {
    process.stdout.write(
      `  Admin sign-in (shown once; change the password in the admin console's Your Account tab or with pnpm admin:create):\n` +
        `    ${config.publicUrl}/admin/login  username: ${admin.username}  password: ${admin.generatedPassword}\n\n`,
    );
  } else {
    process.stdout.write(`  Admin sign-in: ${config.publicUrl}/admin/login as '${admin.username}'\n\n`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await scheduler.stop();
      await app.close();
      await app.deps.mail.stop();
      await maintenance?.stop();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * A connection that dies while checked out emits 'error' on its client, which the pool does not
 * handle then; unhandled, it would end the process. The query itself still fails (503), and the
 * pool discards the broken client when it is released (pg-pool drops a client no longer queryable).
 */
function keepConnectionErrorsLogged(database: Database) {
  database.pool.on('connect', (client) => {
    client.on('error', (err) => bootLog.warn({ err }, 'database connection lost while in use'));
  });
}

/**
 * The schema brought up to date, by one instance at a time (migrate.ts): through DATABASE_DIRECT_URL
 * when it is set (PostgreSQL itself, beside a pooled DATABASE_URL), else through the app's pool. A
 * line is logged every few seconds while another instance holds the lock; after
 * MIGRATION_LOCK_WAIT_SECONDS the start fails with a clear message.
 */
async function migrate(config: ReturnType<typeof loadConfig>, database: Database) {
  const direct = config.databaseDirectUrl
    ? await openDatabase({
        databaseUrl: config.databaseDirectUrl,
        poolSize: 1,
        onPoolError: (err) => bootLog.warn({ err }, 'migration connection lost'),
      })
    : null;
  try {
    const applied = await migrateToLatest((direct ?? database).db, {
      maxWaitMs: (config.migrationLockWaitSec ?? 300) * 1000,
      onWait: (waitedMs) =>
        bootLog.info(
          { waitedSec: Math.round(waitedMs / 1000), giveUpAfterSec: config.migrationLockWaitSec ?? 300 },
          'waiting for the migration lock: another instance is migrating the database',
        ),
    });
    if (applied.length) bootLog.info({ applied: applied.length, latest: applied.at(-1) }, 'database migrated');
  } finally {
    await direct?.close();
  }
}

main().catch((err) => {
  if (err instanceof ConfigError || err?.name === 'DataDirInUseError' || err?.name === 'MigrationLockTimeoutError') {
    process.stderr.write(`\n${err.message}\n\n`);
  } else {
    bootLog.fatal({ err }, 'failed to start');
  }
  process.exit(1);
});
