import { migrateToLatest, openDatabase, seed } from '@dn/db';
import { loadConfig } from '../env';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
try {
  const applied = await migrateToLatest(database.db);
  await seed(database.db);
  process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
} finally {
  await database.close();
}
