import type { DB, Kysely } from '@dn/db';
import {
  findLiveApiToken,
  insertApiToken,
  listApiTokens as listTokenRows,
  revokeApiToken as revokeTokenRow,
  shouldTouchApiToken,
  touchApiToken,
} from '@dn/db/queries/api-tokens';
import { API_TOKEN_MESSAGES, type createApiTokenInput } from '@dn/schema/api-tokens';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/tokens';
import { audit } from '../audit/audit';
import { loadSessionUser } from './users';

/**
 * Personal API tokens (issue 40, docs/decisions/0980-personal-api-tokens.md): an owner makes one
 * for a script; it is shown once and kept as its SHA-256. A request bearing it acts as the admin
 * who made it, with that admin's current role, limited by its scope (trpc/init.ts).
 */

type AdminCtx = Context & { user: User };

/** What every token starts with, so a leaked one is recognisable (secret scanners, log reviews). */
export const API_TOKEN_PREFIX = 'dnp_';
const DAY_MS = 24 * 60 * 60_000;
const LIST_LIMIT = 500;

export async function createApiToken(ctx: AdminCtx, input: z.output<typeof createApiTokenInput>) {
  const token = `${API_TOKEN_PREFIX}${randomToken()}`;
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const created = await insertApiToken(trx, {
      adminId: ctx.user.id,
      name: input.name,
      scope: input.scope,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
    });
    await audit(trx, ctx, {
      eventType: 'api_token.created',
      category: 'admin',
      message: `${ctx.user.username} created the API token "${input.name}" (${input.scope})`,
      details: { tokenId: created.id, scope: input.scope, expiresAt: created.expiresAt },
    });
    return created;
  });
  // The only time the secret leaves the server.
  return { ...row, token };
}

export async function listApiTokens(ctx: AdminCtx) {
  const now = ctx.clock.now().getTime();
  const rows = await listTokenRows(ctx.db, LIST_LIMIT);
  return rows.map((r) => ({
    ...r,
    status: r.revokedAt
      ? ('revoked' as const)
      : r.expiresAt.getTime() <= now
        ? ('expired' as const)
        : ('active' as const),
  }));
}

export async function revokeApiToken(ctx: AdminCtx, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const revoked = await revokeTokenRow(trx, id, ctx.clock.now());
    if (!revoked) throw new AppError('NOT_FOUND', API_TOKEN_MESSAGES.notFound);
    await audit(trx, ctx, {
      eventType: 'api_token.revoked',
      category: 'admin',
      message: `${ctx.user.username} revoked the API token "${revoked.name}"`,
      details: { tokenId: revoked.id, madeBy: revoked.adminId },
    });
  });
  return { ok: true as const };
}

/** The token of an `Authorization: Bearer` header, or null when the header is not one. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/**
 * The user a bearer token acts as: the admin who made it, with their current role and the token's
 * scope; null when the token is unknown, revoked or expired, or its admin is gone.
 */
export async function userOfApiToken(deps: { db: Kysely<DB>; clock: Clock }, token: string): Promise<User | null> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
  const now = deps.clock.now();
  const found = await findLiveApiToken(deps.db, sha256(token), now);
  if (!found) return null;
  const user = await loadSessionUser(deps.db, { userId: found.adminId, role: 'admin' });
  if (!user) return null;
  if (shouldTouchApiToken(found.lastUsedAt, now)) await touchApiToken(deps.db, found.id, now);
  return { ...user, token: { id: found.id, scope: found.scope } };
}
