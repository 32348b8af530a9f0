import type { DB, Kysely } from '@dn/db';
import { type ActionMail, applyDealerChange, type DealerChange, insertAdminAction } from '@dn/db/queries/admin-actions';
import { insertAuditLogs } from '@dn/db/queries/audit-logs';
import { insertActionMails } from '@dn/db/queries/email-outbox';
import { endSessionsOfUsers } from '@dn/db/queries/sessions';
import { type DealerStatus, type ReviewDecision, type SkipReason, UNDO_WINDOW_SECONDS } from '@dn/schema';
import type { Context, User } from '../../context';
import { approveDealers } from '../applications/approve';
import { type Application, canSignIn } from '../applications/review';
import { type AuditEntry, auditRow } from '../audit/audit';
import { type MailMessage, outboxRow } from '../mail/outbox';
import { reactivationEmail, rejectionEmail, suspensionEmail, tierChangeEmail } from '../mail/templates';

/**
 * The one place an admin's approve, reject, status or tier decision is made, for one dealer or
 * ten thousand (docs/decisions/0620-bulk-review-and-undo.md): which dealers it changes and why
 * the others are skipped, what it writes, who is signed out, which emails it queues (held for
 * the undo window) and the audit rows. The single-dealer endpoints and the bulk run call it
 * with a batch of one or of many, so they cannot disagree. An approval is the one approval of
 * services/applications/approve.ts (link, email and audit), called here as an undoable action.
 */

export type AdminContext = Context & { user: User };

/** Emails wait this long past the window, so an undo in its last instant still wins the race. */
export const MAIL_GRACE_MS = 2_000;

export const undoWindowSec = (ctx: Context) => ctx.config.undoWindowSec ?? UNDO_WINDOW_SECONDS;
/**
 * When a decision's emails may leave: the grace past the end of its window. Without a window
 * (UNDO_WINDOW_SECONDS=0) nothing can be undone, so there is no race to give way to: at once.
 */
export const mailNotBefore = (ctx: Context, undoUntil: Date) =>
  new Date(undoUntil.getTime() + (undoWindowSec(ctx) > 0 ? MAIL_GRACE_MS : 0));

/** Why a decision leaves this dealer as it is, or null when it changes it. */
export function skipReason(d: ReviewDecision, before: Pick<Application, 'status' | 'tier'>): SkipReason | null {
  switch (d.kind) {
    case 'approve':
      return canSignIn(before.status) ? 'already_approved' : null;
    case 'reject':
      return before.status === 'rejected' ? 'already_rejected' : null;
    case 'status':
      return before.status === d.status ? 'same_status' : null;
    case 'tier':
      return before.tier === d.tier ? 'same_tier' : null;
  }
}

/** Every decision but approval, which approveDealers makes. */
type OtherDecision = Exclude<ReviewDecision, { kind: 'approve' }>;

const statusAfter = (d: OtherDecision, before: Application): DealerStatus =>
  d.kind === 'reject' ? 'rejected' : d.kind === 'status' ? d.status : before.status;

function change(d: OtherDecision, admin: string): DealerChange {
  switch (d.kind) {
    case 'reject':
      return { kind: 'reject', reason: d.reason };
    case 'status':
      return { kind: 'status', status: d.status, by: admin };
    case 'tier':
      return { kind: 'tier', tier: d.tier };
  }
}

/** A suspension and a reactivation are told; other status moves are the admin's bookkeeping. */
function statusEmailKind(before: Application, to: DealerStatus): 'suspension' | 'reactivation' | null {
  if (to === 'suspended') return 'suspension';
  if (canSignIn(to) && (before.status === 'suspended' || before.status === 'inactive') && before.accessGranted) {
    return 'reactivation';
  }
  return null;
}

function decisionEmail(ctx: AdminContext, d: OtherDecision, b: Application): MailMessage | null {
  const { publicUrl, replyTo } = ctx.config;
  switch (d.kind) {
    case 'reject':
      return rejectionEmail(b, { reason: d.reason, publicUrl, replyTo });
    case 'status': {
      const kind = statusEmailKind(b, d.status);
      if (kind === 'suspension') return suspensionEmail(b, { publicUrl, replyTo });
      if (kind === 'reactivation') return reactivationEmail(b, { publicUrl });
      return null;
    }
    case 'tier':
      return tierChangeEmail(b, { from: b.tier, to: d.tier, publicUrl });
  }
}

function auditEntry(
  admin: string,
  d: OtherDecision,
  b: Application,
  actionId: string,
  emailed: string | null,
): AuditEntry {
  const common = { category: 'admin' as const, dealerId: b.id };
  const tail = { actionId, ...(emailed ? { emailed } : {}) };
  switch (d.kind) {
    case 'reject':
      return {
        ...common,
        eventType: 'dealer.rejected',
        message: `${admin} rejected ${b.email}`,
        details: { before: { status: b.status }, after: { status: 'rejected' }, reason: d.reason, ...tail },
      };
    case 'status':
      return {
        ...common,
        eventType: 'dealer.status_changed',
        message: `${admin} changed ${b.email} from ${b.status} to ${d.status}`,
        details: {
          before: { status: b.status },
          after: { status: d.status },
          signedOut: canSignIn(b.status) && !canSignIn(d.status),
          ...tail,
        },
      };
    case 'tier':
      return {
        ...common,
        eventType: 'dealer.tier_changed',
        message: `${admin} changed ${b.email} from ${b.tier} to ${d.tier}`,
        details: { before: { tier: b.tier }, after: { tier: d.tier }, ...tail },
      };
  }
}

export interface BatchResult {
  changed: number;
  skipped: Partial<Record<SkipReason, number>>;
}

/**
 * Decides a batch of dealers, already locked by the caller's transaction, as part of action
 * `action`: a handful of set-based statements whatever the batch size.
 */
export async function decideBatch(
  trx: Kysely<DB>,
  ctx: AdminContext,
  action: { id: string; undoUntil: Date; mailNotBefore?: Date },
  d: ReviewDecision,
  rows: readonly Application[],
): Promise<BatchResult> {
  const skipped: BatchResult['skipped'] = {};
  const changing: Application[] = [];
  for (const r of rows) {
    const why = skipReason(d, r);
    if (why) skipped[why] = (skipped[why] ?? 0) + 1;
    else changing.push(r);
  }
  if (changing.length === 0) return { changed: 0, skipped };
  const notBefore = action.mailNotBefore ?? mailNotBefore(ctx, action.undoUntil);

  if (d.kind === 'approve') {
    await approveDealers(trx, ctx, changing, { path: 'approve', action: { id: action.id, mailNotBefore: notBefore } });
    return { changed: changing.length, skipped };
  }

  await applyDealerChange(
    trx,
    action.id,
    changing.map((r) => r.id),
    change(d, ctx.user.username),
  );
  await endSessionsOfUsers(
    trx,
    changing.filter((r) => canSignIn(r.status) && !canSignIn(statusAfter(d, r))).map((r) => r.id),
  );
  // Issue 45 (decision 1002): an installer suspended or moved to a tier that does not install loses its open offers now.
  await ctx.offers?.withdrawIneligible(
    trx,
    changing.map((r) => r.id),
  );

  const mails: ActionMail[] = [];
  const audits = changing.map((r) => {
    const m = decisionEmail(ctx, d, r);
    if (m) mails.push(outboxRow({ ...m, dealerId: r.id }));
    return auditRow(ctx, auditEntry(ctx.user.username, d, r, action.id, m?.kind ?? null));
  });
  await insertActionMails(trx, action.id, notBefore, mails);
  await insertAuditLogs(trx, audits);
  return { changed: changing.length, skipped };
}

/**
 * One dealer's decision (the single-dealer endpoints), inside the caller's transaction on the
 * locked dealer. A decision that changes nothing (a double click) records no action, writes
 * nothing and sends nothing.
 */
export async function decideOne(trx: Kysely<DB>, ctx: AdminContext, d: ReviewDecision, before: Application) {
  if (skipReason(d, before)) return null;
  const action = await insertAdminAction(trx, {
    adminId: ctx.user.id,
    adminUsername: ctx.user.username,
    kind: d.kind,
    params: { decision: d, selection: { ids: [before.id] } },
    windowSec: undoWindowSec(ctx),
    total: 1,
    changed: 1,
    done: true,
  });
  await decideBatch(trx, ctx, action, d, [before]);
  return { id: action.id, undoUntil: action.undoUntil.toISOString() };
}

/** After the commit: the held emails go out as soon as the window (and its grace) has passed. */
export function sendWhenFinal(ctx: Context, undoUntil: Date | string | null | undefined): void {
  if (!undoUntil) return;
  const wait = mailNotBefore(ctx, new Date(undoUntil)).getTime() - Date.now();
  if (wait <= 0) {
    ctx.mail.kick();
    return;
  }
  setTimeout(() => ctx.mail.kick(), wait + 200).unref();
}
