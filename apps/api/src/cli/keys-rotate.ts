import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateToLatest, openDatabase } from '@dn/db';
import { loadConfig } from '../env';
import { keyring, newKey } from '../lib/vault';
import { rotateKeys } from '../services/payees/rotate';

/**
 * pnpm keys:rotate (issue 39, decision 0961): re-encrypts every TIN and account number with the
 * new data key.
 *   With DATA_ENCRYPTION_KEY set: it is the NEW key; DATA_ENCRYPTION_KEYS_OLD (comma separated)
 *   holds the key(s) the values were sealed with. Deploy the new key alone afterwards.
 *   Embedded default (the key generated into the data folder): a new key is generated, the values
 *   re-encrypted, then the new key replaces the file's.
 */
const env = process.env;
const config = loadConfig();
const fromFile = !env.DATA_ENCRYPTION_KEY;
const file = join(config.dataDir, 'data-encryption-key');
let ring: ReturnType<typeof keyring>;
if (fromFile) {
  const old = readFileSync(file, 'utf8').trim();
  const next = existsSync(`${file}.next`) ? readFileSync(`${file}.next`, 'utf8').trim() : newKey();
  writeFileSync(`${file}.next`, next, { mode: 0o600 });
  ring = keyring(next, [old]);
} else {
  ring = keyring(config.dataEncryptionKey as string, config.dataEncryptionKeysOld ?? []);
}
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 2,
  transactionPooler: config.databaseTransactionPooler,
});
try {
  await migrateToLatest(database.db);
  const done = await rotateKeys(database.db, ring);
  if (fromFile) renameSync(`${file}.next`, file);
  process.stdout.write(
    `Re-encrypted ${done.values} value(s) of ${done.profiles} payout profile(s) with key ${done.keyId}.${fromFile ? ` The new key is in ${file}.` : ' Deploy DATA_ENCRYPTION_KEY alone now (drop DATA_ENCRYPTION_KEYS_OLD).'}\n`,
  );
} finally {
  await database.close();
}
