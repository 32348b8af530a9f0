import { migrateToLatest, openDatabase, seed } from '@dn/db';
import { loadConfig } from '../env';

const config = loadConfig();
// DATABASE_DIRECT_URL (PostgreSQL itself, beside a pooled DATABASE_URL; issue 46) when it is set.
const database = await openDatabase({
  databaseUrl: config.databaseDirectUrl ?? config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 2,
  transactionPooler: !config.databaseDirectUrl && config.databaseTransactionPooler,
});
try {
  const applied = await migrateToLatest(database.db, {
    maxWaitMs: (config.migrationLockWaitSec ?? 300) * 1000,
    onWait: (ms) =>
      process.stdout.write(
        `Waiting for the migration lock (${Math.round(ms / 1000)} s): another instance is migrating.\n`,
      ),
  });
  await seed(database.db);
  process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
} finally {
  await database.close();
}
