import {
  type CallStatus,
  extractVimeoPlayerUrl,
  INSTALLER_TIERS,
  type updateFirstOrderForm,
  type updateLandingVideo,
} from '@dn/schema';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';
import type { Context, User } from '../trpc/context';
import { audit } from './audit';

/** Calls, first-order forms and landing videos as the admin manages them. */

type AdminContext = Context & { user: User };

/** Scheduled calls first, soonest first; then the others, newest first. */
export async function listCallSchedules(ctx: Context) {
  const [scheduled, others] = await Promise.all([
    ctx.db
      .selectFrom('callSchedules')
      .select(['id', 'name', 'email', 'phone', 'preferredDate', 'preferredTime', 'status', 'notes', 'createdAt'])
      .where('status', '=', 'scheduled')
      .orderBy('preferredDate', 'asc')
      .orderBy('createdAt', 'asc')
      .limit(500)
      .execute(),
    ctx.db
      .selectFrom('callSchedules')
      .select(['id', 'name', 'email', 'phone', 'preferredDate', 'preferredTime', 'status', 'notes', 'createdAt'])
      .where('status', '<>', 'scheduled')
      .orderBy('createdAt', 'desc')
      .limit(200)
      .execute(),
  ]);
  return [...scheduled, ...others];
}

export async function setCallStatus(ctx: AdminContext, id: string, status: CallStatus) {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('callSchedules')
      .select(['id', 'email', 'status', 'preferredDate', 'preferredTime'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', 'Call request not found');
    if (before.status === status) return;
    await trx.updateTable('callSchedules').set({ status, updatedAt: new Date() }).where('id', '=', id).execute();
    await audit(trx, ctx, {
      eventType: `call.${status}`,
      category: 'call',
      message: `${ctx.user.username} marked the call with ${before.email} ${status}`,
      details: { callId: id, email: before.email, before: { status: before.status }, after: { status } },
    });
  });
  return { ok: true as const, status };
}

export function listFirstOrderForms(ctx: Context) {
  return ctx.db
    .selectFrom('firstOrderForms')
    .select(['id', 'tier', 'formUrl', 'isRequired', 'updatedAt'])
    .orderBy('tier')
    .execute();
}

/** The URL is already normalised and checked by the schema; the required flag is forced for installer tiers. */
export async function updateFirstOrderFormConfig(ctx: AdminContext, input: z.output<typeof updateFirstOrderForm>) {
  const isRequired = INSTALLER_TIERS.includes(input.tier) ? true : input.isRequired;
  const formUrl = input.formUrl || null;
  return ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('firstOrderForms')
      .select(['formUrl', 'isRequired'])
      .where('tier', '=', input.tier)
      .executeTakeFirst();
    const row = await trx
      .insertInto('firstOrderForms')
      .values({ tier: input.tier, formUrl, isRequired, updatedAt: new Date() })
      .onConflict((oc) => oc.column('tier').doUpdateSet({ formUrl, isRequired, updatedAt: new Date() }))
      .returning(['id', 'tier', 'formUrl', 'isRequired', 'updatedAt'])
      .executeTakeFirstOrThrow();
    await audit(trx, ctx, {
      eventType: 'first_order_form.updated',
      category: 'admin',
      message: `${ctx.user.username} updated the ${input.tier} first-order form`,
      details: { tier: input.tier, before: before ?? null, after: { formUrl, isRequired } },
    });
    return row;
  });
}

export function listLandingVideosForAdmin(ctx: Context) {
  return ctx.db
    .selectFrom('landingVideos')
    .select(['id', 'videoKey', 'title', 'vimeoEmbedCode', 'isActive', 'updatedAt'])
    .orderBy('videoKey')
    .execute();
}

/**
 * Stores the player URL extracted from the pasted embed code, never the HTML. A blank title
 * keeps the current one; a blank embed code keeps the current video.
 */
export async function updateLandingVideoConfig(ctx: AdminContext, input: z.output<typeof updateLandingVideo>) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('landingVideos')
      .select(['id', 'videoKey', 'title', 'vimeoEmbedCode'])
      .where('id', '=', input.videoId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', 'Video not found');
    const title = input.title?.trim() || before.title;
    const playerUrl = input.vimeoEmbedCode?.trim()
      ? extractVimeoPlayerUrl(input.vimeoEmbedCode)
      : before.vimeoEmbedCode;
    const row = await trx
      .updateTable('landingVideos')
      .set({ title, vimeoEmbedCode: playerUrl, updatedAt: new Date() })
      .where('id', '=', input.videoId)
      .returning(['id', 'videoKey', 'title', 'vimeoEmbedCode', 'isActive', 'updatedAt'])
      .executeTakeFirstOrThrow();
    await audit(trx, ctx, {
      eventType: 'landing_video.updated',
      category: 'admin',
      message: `${ctx.user.username} updated the ${before.videoKey} video`,
      details: {
        videoKey: before.videoKey,
        before: { title: before.title, vimeoEmbedCode: before.vimeoEmbedCode },
        after: { title, vimeoEmbedCode: playerUrl },
      },
    });
    return row;
  });
}
