import { findAdminByUsername, findDealerCredentials } from '@dn/db/queries/accounts';
import { countHit, findWindows } from '@dn/db/queries/rate-limits';
import { ACTIVE_STATUSES, type DealerStatus } from '@dn/schema';
import type { Context } from '../../context';
import { sha256 } from '../../lib/tokens';
import { audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { adminLockedEmail, dealerLockedEmail } from '../mail/templates';
import { issueToken, retireTokens } from './tokens';

export type SignInScope = 'admin' | 'dealer';

/** The budget every unknown client shares for an account (decision 0630); its lock is what we tell. */
export const sharedLoginKey = (scope: SignInScope, account: string) => `login:${scope}:${account.toLowerCase()}`;
/** One row a lock window: the first request that creates it sends the notice (decision 0700). */
export const lockNoticeKey = (scope: SignInScope, account: string) => `lock-notice:${scope}:${account.toLowerCase()}`;

/**
 * Tells an account's owner, once, that failed sign-ins locked it (decision 0700). Called after a
 * failed or refused sign-in that spent the shared budget. The notice is claimed by one
 * `insert ... on conflict` on a rate_limits row that lives exactly as long as the lock, inside the
 * transaction that queues the email: of any number of concurrent failures one queues it, and a
 * rolled-back attempt frees the claim. So at most one email per account per lock window.
 * Dealers get a reset link (a completed reset lifts the lock); admins with an email get the ways
 * back without a link; an admin without an email, an unknown account or a dealer who cannot sign
 * in gets nothing (the failures are in the audit trail either way).
 */
export async function noticeLock(ctx: Context, scope: SignInScope, account: string, maxFailures: number) {
  const lockKey = sharedLoginKey(scope, account);
  const noticeKey = lockNoticeKey(scope, account);
  // One read for the common case of a flood: the lock is noticed already, or there is none.
  const windows = await findWindows(ctx.db, [lockKey, noticeKey]);
  const lock = windows.find((w) => w.key === lockKey);
  if (!lock || lock.count < maxFailures || windows.some((w) => w.key === noticeKey)) return;
  const until = new Date(lock.resetAt);
  const secondsLeft = Math.ceil((until.getTime() - Date.now()) / 1000);
  if (secondsLeft <= 0) return;

  const queued = await ctx.db.transaction().execute(async (trx) => {
    const claim = await countHit(trx, noticeKey, secondsLeft);
    if (claim.count !== 1) return false;
    let to: string | null = null;
    let dealerId: string | null = null;
    if (scope === 'dealer') {
      const dealer = await findDealerCredentials(trx, account);
      if (dealer?.password && ACTIVE_STATUSES.includes(dealer.status as DealerStatus)) {
        // The same one-time reset link as "Forgot password?": it retires older links.
        await retireTokens(trx, dealer.id);
        const token = await issueToken(trx, dealer.id, 'reset');
        await enqueueMail(trx, {
          ...dealerLockedEmail(dealer, { publicUrl: ctx.config.publicUrl, token, until }),
          tokenHash: sha256(token),
        });
        to = dealer.email;
        dealerId = dealer.id;
      }
    } else {
      const admin = await findAdminByUsername(trx, account);
      if (admin?.email) {
        await enqueueMail(
          trx,
          adminLockedEmail(
            { username: admin.username, email: admin.email },
            { publicUrl: ctx.config.publicUrl, until },
          ),
        );
        to = admin.email;
      }
    }
    await audit(
      trx,
      { ...ctx, user: null },
      {
        eventType: 'auth.lock_notice',
        category: 'auth',
        message: to
          ? `Sign-in lock of ${scope} ${account.slice(0, 254)} told to its owner by email`
          : `Sign-in lock of ${scope} ${account.slice(0, 254)}: no owner to email`,
        dealerId,
        success: to !== null,
        details: { scope, account: account.slice(0, 254), emailed: to !== null, until: until.toISOString() },
      },
    );
    return to !== null;
  });
  if (queued) ctx.mail.kick();
}
