import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of TINs and account numbers (issue 39, decision 0961): AES-256-GCM with a
 * 32-byte key, a fresh 12-byte IV per value, and the key's id stored in each envelope:
 *
 *   v1.<key id>.<iv>.<tag>.<ciphertext>      (base64url parts; key id: 8 hex of sha256(key))
 *
 * so a rotation (`pnpm keys:rotate`) knows which key opens what. A keyed hash (HMAC-SHA256 under a
 * key derived from the data key) lets two values be compared without either in plain text.
 */

export class VaultError extends Error {
  override name = 'VaultError';
}

export interface Keyring {
  /** The key new values are written with. */
  current: { id: string; key: Buffer };
  /** Keys that may still open older values (a rotation in progress). */
  old: { id: string; key: Buffer }[];
}

export const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** A key from its base64 text: exactly 32 bytes, or a VaultError naming what is wrong. */
export function parseKey(base64: string): { id: string; key: Buffer } {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new VaultError('must be 32 random bytes in base64 (openssl rand -base64 32)');
  return { id: keyId(key), key };
}

export function keyring(current: string, old: readonly string[] = []): Keyring {
  return { current: parseKey(current), old: old.map(parseKey) };
}

export const newKey = () => randomBytes(32).toString('base64');

export function seal(ring: Keyring, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url'));
  return ['v1', ring.current.id, ...parts].join('.');
}

/** The key id an envelope was sealed with. */
export const sealedWith = (envelope: string) => envelope.split('.')[1] ?? '';

export function open(ring: Keyring, envelope: string): string {
  const [v, kid, iv, tag, ct] = envelope.split('.');
  if (v !== 'v1' || !kid || !iv || !tag || ct === undefined) throw new VaultError('not a sealed value');
  const k = [ring.current, ...ring.old].find((x) => x.id === kid);
  if (!k) throw new VaultError(`no key ${kid} to open this value`);
  const decipher = createDecipheriv('aes-256-gcm', k.key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A keyed hash of a normalized value (digits only), to find the same TIN or account elsewhere
 * without storing or comparing it in plain text. Its key is derived from the current data key, so
 * a rotation recomputes every hash.
 */
export function fingerprint(ring: Keyring, kind: string, value: string): string {
  const hmacKey = createHmac('sha256', ring.current.key).update('dn-fingerprint-v1').digest();
  return createHmac('sha256', hmacKey)
    .update(`${kind}:${value.replace(/\D/g, '')}`)
    .digest('base64url');
}
