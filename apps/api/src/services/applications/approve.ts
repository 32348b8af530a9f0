import type { DB, Kysely } from '@dn/db';
import { applyDealerChange } from '@dn/db/queries/admin-actions';
import { insertAuditLogs } from '@dn/db/queries/audit-logs';
import { markAccessGranted, markDealerApproved } from '@dn/db/queries/dealers';
import { insertActionMails, insertMail } from '@dn/db/queries/email-outbox';
import { replacePasswordLinks } from '@dn/db/queries/magic-link-tokens';
import { TOKEN_TTL_HOURS } from '@dn/schema';
import type { Context, User } from '../../context';
import { randomToken, sha256 } from '../../lib/tokens';
import { type AuditEntry, auditRow } from '../audit/audit';
import { outboxRow } from '../mail/outbox';
import { approvalEmail } from '../mail/templates';
import { type Application, canSignIn } from './review';

/**
 * The one approval (docs/decisions/0300-admin-approval-and-access.md): every path that approves a
 * dealer or sends its set-password link calls `approveDealers`, for one dealer or a bulk batch of a
 * thousand: Approve (services/review/decide.ts, single and bulk, undoable), Grant Access and Send
 * Approval Email (./approval.ts). The callers decide whether it applies; this decides what it does.
 */

type AdminContext = Context & { user: User };

/**
 * How the approval came, and so its audit event and when its emails leave. Approve is an admin
 * action: the change records each dealer's before-state for undo and the emails wait out its window.
 * Grant Access and Send Approval Email take effect at once.
 */
export type ApprovalPath =
  | { path: 'approve'; action: { id: string; mailNotBefore: Date } }
  | { path: 'grant_access' | 'approval_email' };

/**
 * Inside the caller's transaction, on dealers it has locked (`before` is what it read):
 * - a dealer who may not sign in yet becomes approved (date, admin, no rejection reason) with
 *   access; one who may but has no access gets it;
 * - one live link: every earlier unused link of the dealer stops working and a fresh 72-hour
 *   set-password link is issued (issue 12: approve, then Send Approval Email, leaves one live link,
 *   in the newest email; an earlier email still waiting in the outbox is then superseded);
 * - the approval email with that link, and one audit row per dealer in the path's words.
 * A few set-based statements whatever the number of dealers.
 */
export async function approveDealers(
  trx: Kysely<DB>,
  ctx: AdminContext,
  before: readonly Application[],
  how: ApprovalPath,
): Promise<void> {
  if (before.length === 0) return;
  const admin = ctx.user.username;

  if (how.path === 'approve') {
    await applyDealerChange(
      trx,
      how.action.id,
      before.map((d) => d.id),
      { kind: 'approve', by: admin },
    );
  } else {
    for (const d of before) {
      if (!canSignIn(d.status)) await markDealerApproved(trx, d.id, admin);
      else if (!d.accessGranted) await markAccessGranted(trx, d.id);
    }
  }

  // A set-up link and a reset link are two click paths to one password: only the newest email's
  // works. replacePasswordLinks retires every older set-up and reset link of the whole batch in one
  // statement, then stores the new set-up links (approving a thousand stays two statements).
  const expiresAt = new Date(Date.now() + TOKEN_TTL_HOURS.setup * 3_600_000);
  const links = before.map((d) => ({ dealer: d, token: randomToken() }));
  await replacePasswordLinks(
    trx,
    links.map((l) => ({ tokenHash: sha256(l.token), dealerId: l.dealer.id, expiresAt })),
  );

  const mails = links.map((l) =>
    outboxRow({
      ...approvalEmail(l.dealer, { publicUrl: ctx.config.publicUrl, token: l.token }),
      tokenHash: sha256(l.token),
    }),
  );
  if (how.path === 'approve') await insertActionMails(trx, how.action.id, how.action.mailNotBefore, mails);
  else for (const m of mails) await insertMail(trx, m);

  await insertAuditLogs(
    trx,
    before.map((d) => auditRow(ctx, approvalAudit(admin, d, how))),
  );
}

/** Each path keeps its own audit event and words. */
function approvalAudit(admin: string, before: Application, how: ApprovalPath): AuditEntry {
  const dealerId = before.id;
  switch (how.path) {
    case 'approve':
      return {
        eventType: 'dealer.approved',
        category: 'admin',
        message: `${admin} approved ${before.email}`,
        dealerId,
        details: {
          before: { status: before.status },
          after: { status: 'approved', accessGranted: true },
          actionId: how.action.id,
          emailed: 'approval',
        },
      };
    case 'grant_access':
      return {
        eventType: 'dealer.access_granted',
        category: 'admin',
        message: `${admin} granted access to ${before.email}`,
        dealerId,
        details: {
          before: { status: before.status, accessGranted: before.accessGranted },
          after: { status: canSignIn(before.status) ? before.status : 'approved', accessGranted: true },
          emailed: 'approval',
        },
      };
    case 'approval_email':
      return {
        eventType: 'dealer.approval_email_sent',
        category: 'email',
        message: `${admin} sent the approval email to ${before.email}`,
        dealerId,
        details: { emailed: 'approval', ...(before.accessGranted ? {} : { after: { accessGranted: true } }) },
      };
  }
}
