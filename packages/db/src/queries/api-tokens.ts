import type { Executor } from './executor';

/**
 * The only reader and writer of `api_tokens` (issue 40, decision 0980): owners' personal API
 * tokens, kept as the SHA-256 of the secret. Nothing here ever returns the hash.
 */

export type ApiTokenScope = 'read' | 'read-write';

/** Last use is written at most this often, so a script's polls do not write on every request. */
const TOUCH_EVERY_MS = 60_000;

export const insertApiToken = (
  db: Executor,
  t: { adminId: string; name: string; scope: ApiTokenScope; tokenHash: string; expiresAt: Date; createdAt: Date },
) =>
  db
    .insertInto('apiTokens')
    .values(t)
    .returning(['id', 'name', 'scope', 'createdAt', 'expiresAt'])
    .executeTakeFirstOrThrow();

/** Every token of the team, newest first, with who made it (at most `limit`). */
export const listApiTokens = (db: Executor, limit: number) =>
  db
    .selectFrom('apiTokens as t')
    .innerJoin('admins as a', 'a.id', 't.adminId')
    .select([
      't.id',
      't.name',
      't.scope',
      't.createdAt',
      't.expiresAt',
      't.lastUsedAt',
      't.revokedAt',
      't.adminId',
      'a.username as createdBy',
    ])
    .orderBy('t.createdAt', 'desc')
    .orderBy('t.id')
    .limit(limit)
    .execute();

/** Revokes a live token; undefined when there is none by that id or it was already revoked. */
export const revokeApiToken = (db: Executor, id: string, now: Date) =>
  db
    .updateTable('apiTokens')
    .set({ revokedAt: now })
    .where('id', '=', id)
    .where('revokedAt', 'is', null)
    .returning(['id', 'name', 'adminId'])
    .executeTakeFirst();

/** A token that works at `now`: not revoked, not expired. */
export const findLiveApiToken = (db: Executor, tokenHash: string, now: Date) =>
  db
    .selectFrom('apiTokens')
    .select(['id', 'adminId', 'scope', 'lastUsedAt'])
    .where('tokenHash', '=', tokenHash)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();

/** Records a use, unless one was recorded within the last minute (the row is then left alone). */
export async function touchApiToken(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .updateTable('apiTokens')
    .set({ lastUsedAt: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(now.getTime() - TOUCH_EVERY_MS))]),
    )
    .execute();
}

export const shouldTouchApiToken = (lastUsedAt: Date | null, now: Date) =>
  lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= TOUCH_EVERY_MS;
