import type { DB, Kysely } from '@dn/db';
import { TOKEN_TTL_HOURS } from '@dn/schema';
import { AppError } from '../lib/app-error';
import { randomToken, sha256, TOKEN_SHAPE } from '../lib/tokens';

export type TokenPurpose = 'setup' | 'reset';

export const INVALID_LINK = 'The magic link is invalid or malformed.';
export const EXPIRED_LINK = 'The magic link has expired or has already been used.';

/**
 * Issues a one-time link token for a dealer and returns it; the database keeps only its
 * SHA-256. Older unused tokens of the same purpose stop working: only the newest email counts.
 * Call it inside the transaction that sends the email.
 */
export async function issueToken(trx: Kysely<DB>, dealerId: string, purpose: TokenPurpose): Promise<string> {
  await trx
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('dealerId', '=', dealerId)
    .where('purpose', '=', purpose)
    .where('used', '=', false)
    .execute();
  const token = randomToken();
  await trx
    .insertInto('magicLinkTokens')
    .values({
      token: sha256(token),
      dealerId,
      purpose,
      expiresAt: new Date(Date.now() + TOKEN_TTL_HOURS[purpose] * 3_600_000),
    })
    .execute();
  return token;
}

/**
 * Uses a token once. The single UPDATE ... WHERE used = false is the atomic step: of two
 * concurrent uses exactly one gets the row back. Throws INVALID_INPUT for a malformed or
 * unknown token and TOKEN_EXPIRED for one that expired, was used or was superseded.
 */
export async function consumeToken(
  trx: Kysely<DB>,
  token: string,
  purpose?: TokenPurpose,
): Promise<{ dealerId: string; purpose: TokenPurpose }> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  const hash = sha256(token);
  let q = trx
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('token', '=', hash)
    .where('used', '=', false)
    .where('expiresAt', '>', new Date());
  if (purpose) q = q.where('purpose', '=', purpose);
  const row = await q.returning(['dealerId', 'purpose']).executeTakeFirst();
  if (row) return row;
  const known = await trx.selectFrom('magicLinkTokens').select('purpose').where('token', '=', hash).executeTakeFirst();
  if (!known || (purpose && known.purpose !== purpose)) throw new AppError('INVALID_INPUT', INVALID_LINK);
  throw new AppError('TOKEN_EXPIRED', EXPIRED_LINK);
}

/** After a password is set, no older link may set it again. */
export async function retireTokens(trx: Kysely<DB>, dealerId: string): Promise<void> {
  await trx
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('dealerId', '=', dealerId)
    .where('used', '=', false)
    .execute();
}
