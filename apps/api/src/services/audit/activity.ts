import { Readable } from 'node:stream';
import {
  ACTIVITY_EXPORT_COLUMNS,
  type ActivityFilter,
  activityEventTypes,
  activityExportBatch,
  activityPage,
} from '@dn/db/queries/activity';
import type { activityExportQuery, activityQuery } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { csvLine, csvLines } from '../../lib/csv';
import { audit } from './audit';

/** The Activity tab (issue 14): the audit trail read back, filtered, paged on the server, exported. */

const DAY_MS = 86_400_000;

function filterOf(q: z.output<typeof activityExportQuery>): ActivityFilter {
  return {
    actor: q.actor || undefined,
    eventType: q.eventType || undefined,
    dealerId: q.dealerId,
    from: q.from ? new Date(`${q.from}T00:00:00Z`) : undefined,
    // The last day is included: the bound is the next midnight.
    to: q.to ? new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
  };
}

export async function listActivity(ctx: Context, q: z.output<typeof activityQuery>) {
  const page = await activityPage(ctx.db, filterOf(q), q.cursor ?? null, q.limit);
  return { items: page.rows, nextCursor: page.next };
}

export const listActivityEventTypes = (ctx: Context) => activityEventTypes(ctx.db);

const BATCH = 1_000;
const FIELDS = ACTIVITY_EXPORT_COLUMNS.map(([, key]) => ({ key, escaped: true }));
const HEADER = `\uFEFF${csvLine(ACTIVITY_EXPORT_COLUMNS.map(([h]) => h))}`;

export const activityFileName = (now = new Date()) => `activity-${now.toISOString().slice(0, 10)}.csv`;

/**
 * The filtered trail as CSV, streamed in keyset batches like the dealers export (every cell
 * through lib/csv.ts: quoted and formula-neutralised). The export is itself audited.
 */
export async function exportActivityCsv(
  ctx: Context & { user: User },
  q: z.output<typeof activityExportQuery>,
): Promise<Readable> {
  const filter = filterOf(q);
  await audit(ctx.db, ctx, {
    eventType: 'activity.exported',
    category: 'admin',
    message: `${ctx.user.username} exported the activity CSV`,
    details: { filter: q },
  });
  const db = ctx.db;
  async function* chunks() {
    yield HEADER;
    let after: string | null = null;
    for (;;) {
      const batch = await activityExportBatch(db, filter, after, BATCH);
      if (batch.rows.length > 0) yield csvLines(batch.rows as unknown as Record<string, string | null>[], FIELDS);
      if (!batch.next) break;
      after = batch.next;
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}
