import {
  type ClaimRow,
  deleteClaim,
  insertClaim,
  listClaims,
  listClaimsInEffect,
  lockClaim,
  updateClaim,
} from '@dn/db/queries/homeowner-claims';
import { CLAIM_MESSAGES, type ClaimInput } from '@dn/schema/claims';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { zipCentroid } from '../../lib/zip';
import { audit } from '../audit/audit';

/**
 * Homeowner claims and incentives (issue 37, decision 0930): owners edit them; the site and the savings
 * calculator read those in effect today by the clock, a day being the US Eastern calendar day.
 */

export const CLAIMS_TIME_ZONE = 'America/New_York';

/** The calendar day (YYYY-MM-DD) of `at` in the claims' time zone. */
export function claimsDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: CLAIMS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The claims in effect now: the unscoped ones, and with a ZIP those for that ZIP or its state. */
export async function claimsInEffect(ctx: Context, zip?: string) {
  const today = claimsDay(ctx.clock.now());
  // The ZIP's state from the maintained ZIP data set (lib/zip.ts, decision 0910); unknown: no state scope.
  const state = zip ? (zipCentroid(zip)?.state ?? null) : null;
  const items = await listClaimsInEffect(ctx.db, { today, zip, state });
  return { today, zip: zip ?? null, state, items };
}

export async function claimsForOwners(ctx: Context) {
  return { today: claimsDay(ctx.clock.now()), items: await listClaims(ctx.db) };
}

const described = (c: ClaimRow | ClaimInput) => `${c.kind} "${c.text.slice(0, 80)}"`;

export function createClaim(ctx: Context & { user: User }, input: ClaimInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await insertClaim(trx, input);
    await audit(trx, ctx, {
      eventType: 'claim.created',
      category: 'admin',
      message: `${ctx.user.username} added the ${described(row)}`,
      details: { after: row },
    });
    return row;
  });
}

export function editClaim(ctx: Context & { user: User }, input: ClaimInput & { id: string }) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockClaim(trx, input.id);
    if (!before) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
    const row = await updateClaim(trx, input.id, input);
    await audit(trx, ctx, {
      eventType: 'claim.updated',
      category: 'admin',
      message: `${ctx.user.username} edited the ${described(row)}`,
      details: { before, after: row },
    });
    return row;
  });
}

export function removeClaim(ctx: Context & { user: User }, id: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockClaim(trx, id);
    if (!before) throw new AppError('NOT_FOUND', CLAIM_MESSAGES.notFound);
    await deleteClaim(trx, id);
    await audit(trx, ctx, {
      eventType: 'claim.deleted',
      category: 'admin',
      message: `${ctx.user.username} removed the ${described(before)}`,
      details: { before },
    });
    return { id, deleted: true as const };
  });
}
