import { resetExpiredInARow, resumeServiceArea } from '@dn/db/queries/installer-scores';
import { findDealerForJobs, findServiceArea, type ServiceArea, upsertServiceArea } from '@dn/db/queries/jobs';
import { SERVICE_AREA_NOT_SET, SERVICE_AREA_TIERS_ONLY, type ServiceAreaInput } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { zipCentroid } from '../../lib/zip';
import { centroidOf } from './intake';

/** An installer's service area: home ZIP, radius, weekly capacity, pause (Authorized and Preferred only). */

type Dealer = Context & { user: User };

/** Weekly capacity when the installer has not set one: their crew count, else 3 (decision 0912). */
const DEFAULT_CAPACITY = 3;

function installerOnly(ctx: Dealer) {
  if (ctx.user.tier !== 'Authorized' && ctx.user.tier !== 'Preferred') {
    throw new AppError('FORBIDDEN', SERVICE_AREA_TIERS_ONLY);
  }
}

const shaped = (a: ServiceArea) => ({
  zipCode: a.zipCode,
  radiusMiles: a.radiusMiles,
  weeklyCapacity: a.weeklyCapacity,
  paused: a.paused,
  pausedUntil: a.pausedUntil ? a.pausedUntil.toISOString().slice(0, 10) : null,
  // Issue 50: 'expired_offers' when routing paused it after offers expired in a row (decision 1123).
  pausedReason: a.pausedReason,
  // The place people know the ZIP by ("North Pole, AK"): the summary says where jobs come from (issue 47).
  city: placeOf(a.zipCode),
});

function placeOf(zip: string): string | null {
  const c = zipCentroid(zip);
  return c ? `${c.city}, ${c.state}` : null;
}

export async function getServiceArea(ctx: Dealer) {
  installerOnly(ctx);
  const area = await findServiceArea(ctx.db, ctx.user.id);
  if (!area) return { area: null };
  return { area: shaped(area) };
}

export async function putServiceArea(ctx: Dealer, input: ServiceAreaInput) {
  installerOnly(ctx);
  const c = centroidOf(input.zipCode);
  const dealer = await findDealerForJobs(ctx.db, ctx.user.id);
  const existing = await findServiceArea(ctx.db, ctx.user.id);
  const capacity =
    input.weeklyCapacity ??
    existing?.weeklyCapacity ??
    Math.min(Math.max(dealer?.crewCount ?? DEFAULT_CAPACITY, 1), 500);
  // Still paused: the reason stays (routing's pause is resumed by unpausing); unpaused: gone.
  const pausedReason = input.paused ? (existing?.pausedReason ?? null) : null;
  const area = await upsertServiceArea(ctx.db, {
    dealerId: ctx.user.id,
    zipCode: c.zip,
    state: c.state,
    latitude: c.latitude,
    longitude: c.longitude,
    radiusMiles: input.radiusMiles,
    weeklyCapacity: capacity,
    paused: input.paused,
    pausedUntil: input.pausedUntil ? new Date(`${input.pausedUntil}T00:00:00Z`) : null,
    pausedReason,
    updatedAt: ctx.clock.now(),
  });
  // Unpausing themselves is resuming (issue 50): the count of offers expired in a row starts over.
  if (!input.paused && existing?.paused) await resetExpiredInARow(ctx.db, ctx.user.id);
  return { area: shaped(area) };
}

/** The installer resumes their own area (the panel's Resume, issue 50): unpaused, the count starts over. */
export async function resumeOwnServiceArea(ctx: Dealer) {
  installerOnly(ctx);
  const area = await ctx.db.transaction().execute(async (trx) => {
    const resumed = await resumeServiceArea(trx, ctx.user.id, ctx.clock.now());
    if (resumed) await resetExpiredInARow(trx, ctx.user.id);
    return resumed;
  });
  if (!area) throw new AppError('NOT_FOUND', SERVICE_AREA_NOT_SET);
  return { area: shaped(area) };
}
