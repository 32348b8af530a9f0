import { createHash, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;
const POOL_BYTES = TOKEN_BYTES * 128;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * 32 random bytes, URL-safe: session ids and one-time tokens. Drawn from a pool of the CSPRNG's
 * output filled 4 KB at a time, as crypto.randomUUID does: every anonymous request gets a
 * session id it will never use, and one call per id cost more than the rest of the session's
 * work. Each byte is handed out once; a used pool is dropped, never refilled in place.
 */
export function randomToken(): string {
  if (offset + TOKEN_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const token = pool.toString('base64url', offset, offset + TOKEN_BYTES);
  offset += TOKEN_BYTES;
  return token;
}

/** What the database keeps of a secret. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
