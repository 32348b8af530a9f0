import { sql } from 'kysely';
import type { AdminActionKind, DealerStatus, Tier } from '../types';
import { filteredDealers } from './dealers';
import { holdMailOfAction, type NewMail } from './email-outbox';
import type { Executor } from './executor';

/**
 * Admin decisions over many dealers at once, and their undo (issue 14, decision 0620). Every
 * statement here works on a batch (set-based, one round trip per batch whatever its size); the
 * single-dealer paths run the same statements with a batch of one.
 */

export interface SelectionFilter {
  q?: string | undefined;
  tier?: Tier | undefined;
  status?: DealerStatus | undefined;
}

export type DealerSelection = { ids: string[] } | { filter: SelectionFilter };

const DECIDED_COLUMNS = [
  'd.id',
  'd.email',
  'd.fullName',
  'd.companyName',
  'd.tier',
  'd.status',
  'd.accessGranted',
  'd.referredBy',
  'd.referralType',
  'd.recruiterId',
  'd.approvalDate',
  'd.rejectionReason',
] as const;

/**
 * How many dealers a filter selects now: those created by the transaction's start (`now()`), which
 * is the created_at of an action inserted in the same transaction (see lockSelectionBatch).
 */
export async function countSelection(db: Executor, f: SelectionFilter): Promise<number> {
  let q = filteredDealers(db, f).where('d.createdAt', '<=', sql<Date>`now()`);
  if (f.status) q = q.where('d.status', '=', f.status);
  const r = await q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * The next batch of a selection, locked for the deciding transaction, in id order after
 * `after` (a keyset cursor, so rows the decision moves out of the filter do not shift pages).
 * A filter's set is fixed when its action started (issue 35): only dealers created by the action's
 * created_at are taken, so signups arriving while it runs are left for the next decision.
 */
export function lockSelectionBatch(
  db: Executor,
  sel: DealerSelection,
  after: string | null,
  limit: number,
  actionId: string,
) {
  let q = ('ids' in sel ? db.selectFrom('dealers as d').where('d.id', 'in', sel.ids) : filteredDealers(db, sel.filter))
    .select(DECIDED_COLUMNS)
    .orderBy('d.id')
    .limit(limit)
    .forUpdate();
  if ('filter' in sel) {
    q = q.where('d.createdAt', '<=', (eb) =>
      eb.selectFrom('adminActions as a').select('a.createdAt').where('a.id', '=', actionId),
    );
    if (sel.filter.status) q = q.where('d.status', '=', sel.filter.status);
  }
  if (after) q = q.where('d.id', '>', after);
  return q.execute();
}

export type DealerChange =
  | { kind: 'approve'; by: string }
  | { kind: 'reject'; reason: string }
  | { kind: 'status'; status: DealerStatus; by: string }
  | { kind: 'tier'; tier: Tier };

function setClause(c: DealerChange) {
  switch (c.kind) {
    case 'approve':
      return sql`status = 'approved', access_granted = true, approval_date = now(), approved_by = ${c.by}, rejection_reason = null`;
    case 'reject':
      return sql`status = 'rejected', rejection_reason = ${c.reason}`;
    case 'status': {
      const records = sql`${c.status}::text = 'approved' and d.approval_date is null`;
      return sql`status = ${c.status},
        approval_date = case when ${records} then now() else d.approval_date end,
        approved_by = case when ${records} then ${c.by} else d.approved_by end`;
    }
    case 'tier':
      return sql`tier = ${c.tier}`;
  }
}

/**
 * Applies one change to the given (already locked) dealers and records, in the same
 * statement, each one's before-state and the updated_at it leaves, for undo.
 */
export async function applyDealerChange(
  db: Executor,
  actionId: string,
  ids: readonly string[],
  change: DealerChange,
): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await sql`
    with old as (
      select id, status, tier, access_granted, approval_date, approved_by, rejection_reason
      from dealers where id in (${sql.join(ids)})
    ), upd as (
      update dealers d set ${setClause(change)}, updated_at = now()
      from old where d.id = old.id
      returning d.id, d.updated_at
    )
    insert into admin_action_items (action_id, dealer_id, before_status, before_tier, before_access_granted,
      before_approval_date, before_approved_by, before_rejection_reason, after_updated_at)
    select ${actionId}, old.id, old.status, old.tier, old.access_granted, old.approval_date, old.approved_by,
      old.rejection_reason, upd.updated_at
    from old join upd on upd.id = old.id`.execute(db);
  return Number(r.numAffectedRows ?? 0n);
}

export async function insertAdminAction(
  db: Executor,
  a: {
    adminId: string | null;
    adminUsername: string;
    kind: AdminActionKind;
    params: object;
    windowSec: number;
    total: number;
    changed?: number;
    done?: boolean;
  },
) {
  return db
    .insertInto('adminActions')
    .values({
      total: a.total,
      changed: a.changed ?? 0,
      done: a.done ?? false,
      adminId: a.adminId,
      adminUsername: a.adminUsername,
      kind: a.kind,
      params: JSON.stringify(a.params),
      undoUntil: sql<Date>`now() + make_interval(secs => ${a.windowSec})`,
    })
    .returning(['id', 'undoUntil', 'createdAt'])
    .executeTakeFirstOrThrow();
}

/** The action, locked, with whether its window is still open by the database clock. */
export function lockAdminAction(db: Executor, id: string) {
  return db
    .selectFrom('adminActions')
    .select([
      'id',
      'adminId',
      'adminUsername',
      'kind',
      'params',
      'total',
      'changed',
      'skipped',
      'cursor',
      'done',
      'undoUntil',
      'undoneAt',
      'createdAt',
      sql<boolean>`undo_until > now()`.as('open'),
    ])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** A bulk action's next batch starts: its window restarts (a long run must not become final while it runs). */
export async function extendActionWindow(db: Executor, id: string, windowSec: number): Promise<Date> {
  const row = await db
    .updateTable('adminActions')
    .set({ undoUntil: sql<Date>`now() + make_interval(secs => ${windowSec})` })
    .where('id', '=', id)
    .returning('undoUntil')
    .executeTakeFirstOrThrow();
  return row.undoUntil;
}

/**
 * A batch's progress. When the last batch is done, every email of the action (held while the
 * run was in progress) is due at the end of the final window: one pass, not one per batch.
 */
export async function recordActionBatch(
  db: Executor,
  id: string,
  p: { changed: number; skipped: Record<string, number>; cursor: string | null; done: boolean; notBefore: Date },
): Promise<void> {
  await db
    .updateTable('adminActions')
    .set({ changed: p.changed, skipped: JSON.stringify(p.skipped), cursor: p.cursor, done: p.done })
    .where('id', '=', id)
    .execute();
  if (p.done) await holdMailOfAction(db, id, p.notBefore);
}

export async function markActionUndone(db: Executor, id: string): Promise<void> {
  await db.updateTable('adminActions').set({ undoneAt: sql<Date>`now()` }).where('id', '=', id).execute();
}

/** An action's email: the outbox's NewMail (email-outbox.ts owns the table). */
export type ActionMail = NewMail;

/**
 * Undo: puts back the before-state of every dealer the action changed and nothing changed
 * since (its updated_at is still the one the action left). Resolves with the restored rows.
 */
export async function restoreActionItems(db: Executor, actionId: string) {
  const r = await sql<{ id: string; email: string; status: DealerStatus; tier: Tier }>`
    update dealers d set
      status = i.before_status, tier = i.before_tier, access_granted = i.before_access_granted,
      approval_date = i.before_approval_date, approved_by = i.before_approved_by,
      rejection_reason = i.before_rejection_reason, updated_at = now()
    from admin_action_items i
    where i.action_id = ${actionId} and d.id = i.dealer_id and d.updated_at = i.after_updated_at
    returning d.id, d.email, d.status, d.tier`.execute(db);
  return r.rows;
}
