import { randomBytes } from 'node:crypto';
import { migrateToLatest, openDatabase, seed } from '@dn/db';
import { loadConfig } from '../env';
import { upsertAdmin } from '../services/accounts/admins';

/**
 * pnpm admin:create <username> [password]
 * Creates the admin or sets its password (ending its sessions). Without a password one is generated and printed.
 */
const [username, given] = process.argv.slice(2).filter((a) => a !== '--');
if (!username) {
  process.stderr.write('Usage: pnpm admin:create <username> [password]\n');
  process.exit(2);
}
if (given !== undefined && given.length < 8) {
  process.stderr.write('The password must be at least 8 characters.\n');
  process.exit(2);
}
const password = given ?? randomBytes(12).toString('base64url');
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 2,
  transactionPooler: config.databaseTransactionPooler,
});
try {
  await migrateToLatest(database.db);
  await seed(database.db);
  const action = await upsertAdmin(database.db, username, password);
  process.stdout.write(`Admin '${username}' ${action}.${given ? '' : ` Password: ${password}`}\n`);
} finally {
  await database.close();
}
