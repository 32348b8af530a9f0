import type { Config } from '../../env';
import { type Keyring, keyring } from '../../lib/vault';

/** The data keys of this process (DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_KEYS_OLD; decision 0961). */
const cache = new WeakMap<Config, Keyring>();

export function ringOf(config: Config): Keyring {
  let ring = cache.get(config);
  if (!ring) {
    if (!config.dataEncryptionKey) throw new Error('DATA_ENCRYPTION_KEY is not configured');
    ring = keyring(config.dataEncryptionKey, config.dataEncryptionKeysOld ?? []);
    cache.set(config, ring);
  }
  return ring;
}
