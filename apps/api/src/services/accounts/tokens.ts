import type { DB, Kysely } from '@dn/db';
import {
  findToken,
  insertToken,
  retireUnusedTokens,
  type TokenPurpose,
  useToken,
} from '@dn/db/queries/magic-link-tokens';
import { EXPIRED_LINK, INVALID_LINK, TOKEN_SHAPE, TOKEN_TTL_HOURS } from '@dn/schema';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/tokens';

/**
 * Issues a one-time link token for a dealer and returns it; the database keeps only its
 * SHA-256. Older unused tokens of the same purpose stop working: only the newest email counts.
 * Call it inside the transaction that sends the email.
 */
export async function issueToken(trx: Kysely<DB>, dealerId: string, purpose: TokenPurpose): Promise<string> {
  await retireUnusedTokens(trx, dealerId, purpose);
  const token = randomToken();
  await insertToken(trx, {
    tokenHash: sha256(token),
    dealerId,
    purpose,
    expiresAt: new Date(Date.now() + TOKEN_TTL_HOURS[purpose] * 3_600_000),
  });
  return token;
}

/**
 * Uses a token once (atomically: of two concurrent uses exactly one wins). Throws INVALID_INPUT
 * for a malformed or unknown token and TOKEN_EXPIRED for one that expired, was used or was superseded.
 */
export async function consumeToken(
  trx: Kysely<DB>,
  token: string,
  purpose?: TokenPurpose,
): Promise<{ dealerId: string; purpose: TokenPurpose }> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  const hash = sha256(token);
  const row = await useToken(trx, hash, purpose);
  if (row) return row;
  const known = await findToken(trx, hash);
  if (!known || (purpose && known.purpose !== purpose)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
}

/**
 * The cheap look before a password is hashed, and what the set-password page asks when it opens
 * (issue 36: a dead link offers a fresh one before anything is typed): nobody makes the server hash a password for a
 * link that cannot work. Throws as consumeToken would; consumeToken still decides.
 */
export async function assertTokenUsable(db: Kysely<DB>, token: string): Promise<{ purpose: TokenPurpose }> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  const pending = await findToken(db, sha256(token));
  if (!pending?.dealerId || pending.purpose === 'admin_invite') throw new AppError('INVALID_INPUT', INVALID_LINK);
  if (pending.used || new Date(pending.expiresAt) <= new Date()) throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
  return { purpose: pending.purpose };
}

/** After a password is set, no older link may set it again. */
export const retireTokens = (trx: Kysely<DB>, dealerId: string): Promise<void> => retireUnusedTokens(trx, dealerId);
