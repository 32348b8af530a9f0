import type { Selectable } from 'kysely';
import type { DB } from '../types';
import type { Executor } from './executor';

/** One-time link tokens. The table keeps the SHA-256 of each token, never the token. */

/** A dealer's link purposes (an admin invitation has its own functions below). */
export type TokenPurpose = Exclude<Selectable<DB['magicLinkTokens']>['purpose'], 'admin_invite'>;

/** Marks a dealer's unused tokens used (of one purpose, or all of them); the newest email is the only one that works. */
export async function retireUnusedTokens(db: Executor, dealerId: string, purpose?: TokenPurpose): Promise<void> {
  let q = db.updateTable('magicLinkTokens').set({ used: true }).where('dealerId', '=', dealerId);
  if (purpose) q = q.where('purpose', '=', purpose);
  await q.where('used', '=', false).execute();
}

export async function insertToken(
  db: Executor,
  t: { tokenHash: string; dealerId: string; purpose: TokenPurpose; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('magicLinkTokens')
    .values({ token: t.tokenHash, dealerId: t.dealerId, purpose: t.purpose, expiresAt: t.expiresAt })
    .execute();
}

/** Retires the dealers' unused set-up and reset links and stores the new set-up links (hashes only). */
export async function replacePasswordLinks(
  db: Executor,
  tokens: readonly { tokenHash: string; dealerId: string; expiresAt: Date }[],
): Promise<void> {
  if (tokens.length === 0) return;
  await db
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where(
      'dealerId',
      'in',
      tokens.map((t) => t.dealerId),
    )
    .where('purpose', 'in', ['setup', 'reset'])
    .where('used', '=', false)
    .execute();
  await db
    .insertInto('magicLinkTokens')
    .values(
      tokens.map((t) => ({
        token: t.tokenHash,
        dealerId: t.dealerId,
        purpose: 'setup' as const,
        expiresAt: t.expiresAt,
      })),
    )
    .execute();
}

/** Undo: the set-up links the action issued stop working. */
export async function retireTokensOfAction(db: Executor, actionId: string, since: Date): Promise<void> {
  await db
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('dealerId', 'in', (eb) =>
      eb.selectFrom('adminActionItems').select('dealerId').where('actionId', '=', actionId),
    )
    .where('purpose', '=', 'setup')
    .where('used', '=', false)
    .where('createdAt', '>=', since)
    .execute();
}

/**
 * Uses a live token once. The single UPDATE ... WHERE used = false is the atomic step: of two
 * concurrent uses exactly one gets the row back; the others get undefined.
 */
export async function useToken(
  db: Executor,
  tokenHash: string,
  purpose?: TokenPurpose,
): Promise<{ dealerId: string; purpose: TokenPurpose } | undefined> {
  let q = db
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('token', '=', tokenHash)
    .where('used', '=', false)
    .where('expiresAt', '>', new Date());
  if (purpose) q = q.where('purpose', '=', purpose);
  // A dealer's token only: an admin invitation is used through useInviteToken.
  return q
    .where('dealerId', 'is not', null)
    .returning(['dealerId', 'purpose'])
    .$narrowType<{ dealerId: string; purpose: TokenPurpose }>()
    .executeTakeFirst();
}

/** An admin invitation's token (issue 14): the same table, hashing and single use as a dealer's link. */
export async function insertInviteToken(
  db: Executor,
  t: { tokenHash: string; invitationId: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('magicLinkTokens')
    .values({ token: t.tokenHash, invitationId: t.invitationId, purpose: 'admin_invite', expiresAt: t.expiresAt })
    .execute();
}

/** Marks an invitation's unused tokens used: a new invitation to the same person supersedes the old link. */
export async function retireInviteTokens(db: Executor, invitationIds: string[]): Promise<void> {
  if (invitationIds.length === 0) return;
  await db
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('invitationId', 'in', invitationIds)
    .where('used', '=', false)
    .execute();
}

/** Uses a live invitation token once (the same atomic UPDATE as useToken). */
export const useInviteToken = (db: Executor, tokenHash: string) =>
  db
    .updateTable('magicLinkTokens')
    .set({ used: true })
    .where('token', '=', tokenHash)
    .where('used', '=', false)
    .where('expiresAt', '>', new Date())
    .where('purpose', '=', 'admin_invite')
    .returning(['invitationId'])
    .$narrowType<{ invitationId: string }>()
    .executeTakeFirst();

/** A token's state, whether or not it can still be used. */
export const findToken = (db: Executor, tokenHash: string) =>
  db
    .selectFrom('magicLinkTokens')
    .select(['purpose', 'used', 'expiresAt', 'dealerId'])
    .where('token', '=', tokenHash)
    .executeTakeFirst();

/**
 * An invitation by its link's token, whether or not the link still works (issue 36: the page
 * shows which email and role it accepts before anything is typed).
 */
export const findInvitationByToken = (db: Executor, tokenHash: string) =>
  db
    .selectFrom('magicLinkTokens as t')
    .innerJoin('adminInvitations as i', 'i.id', 't.invitationId')
    .select(['t.used', 't.expiresAt', 'i.email', 'i.role', 'i.acceptedAt', 'i.invitedBy'])
    .where('t.token', '=', tokenHash)
    .where('t.purpose', '=', 'admin_invite')
    .executeTakeFirst();
