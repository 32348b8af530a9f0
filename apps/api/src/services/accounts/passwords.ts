import { revokeDevices } from '@dn/db/queries/account-devices';
import { findDealerCredentials, lockDealerAccount, setDealerPassword } from '@dn/db/queries/accounts';
import { endSessionsOfUser } from '@dn/db/queries/sessions';
import {
  ACTIVE_STATUSES,
  canonicalMailbox,
  type DealerStatus,
  INVALID_LINK,
  type resetPassword,
  type setupPassword,
} from '@dn/schema';
import type { z } from 'zod';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { assertNotCommonPassword, hashPassword } from '../../lib/password';
import { audit } from '../audit/audit';
import { queuePasswordChangedEmail, queueResetEmail, queueSetupLinkEmail } from './emails';
import { lockNoticeKey, sharedLoginKey } from './lock-notice';
import { clear, hit, spendRecipient } from './rate-limit';
import { STATUS_MESSAGES } from './sign-in';
import { assertTokenUsable, consumeToken, retireTokens } from './tokens';
import { loadSessionUser, publicUser } from './users';

const mayUsePortal = (status: string) => ACTIVE_STATUSES.includes(status as DealerStatus);

/**
 * Sets a dealer's password from an emailed link (setup or reset), grants access, ends every
 * other session of that dealer and signs this browser in with a new session.
 */
export async function setupPasswordWithToken(ctx: Context, input: z.output<typeof setupPassword>) {
  // A cheap look first: nobody makes the server hash a password for a link that cannot work.
  await assertTokenUsable(ctx.db, input.token);

  assertNotCommonPassword(input.password, 'password');
  const hash = await hashPassword(input.password);
  const dealer = await ctx.db.transaction().execute(async (trx) => {
    const { dealerId, purpose } = await consumeToken(trx, input.token);
    const d = await lockDealerAccount(trx, dealerId);
    if (!d) throw new AppError('INVALID_INPUT', INVALID_LINK);
    // Throwing rolls the transaction back: the link stays unused for when the account is reopened.
    if (!mayUsePortal(d.status))
      throw new AppError('FORBIDDEN', STATUS_MESSAGES[d.status] ?? 'Please contact support.');
    await setDealerPassword(trx, d.id, hash);
    await retireTokens(trx, d.id);
    // Every remembered browser loses its own sign-in budget (issue 35, finding 3).
    await revokeDevices(trx, { dealerId: d.id }, null);
    // A completed reset lifts a sign-in lockout (decision 0630): whoever locked the account out
    // does not hold the mailbox, and the owner has just proved they do.
    await clear(trx, sharedLoginKey('dealer', d.email));
    // A new lock after this one is told again (decision 0700).
    await clear(trx, lockNoticeKey('dealer', d.email));
    await audit(
      trx,
      { ...ctx, user: null },
      {
        eventType: purpose === 'setup' ? 'dealer.password_set' : 'dealer.password_reset',
        category: 'auth',
        message: `Dealer ${d.email} set a password with a ${purpose} link`,
        dealerId: d.id,
      },
    );
    // The first password (a set-up link, only issued to a dealer who never had one) changed nothing:
    // no "your password was changed" notice right after the welcome (issue 47, decision 1063).
    if (purpose !== 'setup') await queuePasswordChangedEmail(trx, d, ctx.config);
    return d;
  });
  ctx.mail.kick();
  // Whoever held a session with the old password is signed out; this browser starts afresh.
  await endSessionsOfUser(ctx.db, dealer.id, undefined, 'password_changed');
  await ctx.session.signIn({ id: dealer.id, role: 'dealer' });
  const user = await loadSessionUser(ctx.db, { userId: dealer.id, role: 'dealer' });
  return { user: publicUser(user!) };
}

export const RESET_ANSWER =
  'If an account exists for that email, we have sent it a link to set a new password. Please check your inbox.';

/**
 * Emails a fresh link to a dealer who may sign in: a reset link (1 hour) when a password is
 * set, a set-up link (72 hours) when it never was. Everyone gets the same answer, and the
 * budget is counted per address and per IP whether or not the address is known.
 * See docs/decisions/0201-reset-and-fresh-links.md.
 */
export async function requestPasswordReset(ctx: Context, input: z.output<typeof resetPassword>) {
  const email = input.email.toLowerCase();
  await hit(ctx.db, `reset:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.resetPerIp);
  // One budget per mailbox, however the address is spelt (issue 35, decision 0880).
  await hit(ctx.db, `reset:account:${canonicalMailbox(email)}`, ctx.limits.resetPerAccount);
  const dealer = await findDealerCredentials(ctx.db, email);
  const eligible = dealer && mayUsePortal(dealer.status) ? dealer : null;
  const sent = await ctx.db.transaction().execute(async (trx) => {
    // Counted for every request, known address or not, so the budget tells nothing about accounts;
    // over it the answer is the same and no email is queued (decision 0701).
    const recipient = await spendRecipient(trx, ctx.limits.mailPerRecipient, email);
    const send = Boolean(eligible) && recipient.allowed;
    if (eligible && send) {
      if (eligible.password) await queueResetEmail(trx, eligible, ctx.config);
      else await queueSetupLinkEmail(trx, eligible, ctx.config);
    }
    await audit(trx, ctx, {
      eventType: 'auth.password_reset_requested',
      category: 'auth',
      message: send
        ? `Password link emailed to ${eligible?.email}`
        : eligible
          ? `Password link not emailed to ${eligible.email}: too many emails to this address this hour`
          : 'Password link requested for no eligible account',
      dealerId: dealer?.id ?? null,
      details: { sent: send, status: dealer?.status ?? null, ...(recipient.allowed ? {} : { recipientLimited: true }) },
    });
    return send;
  });
  if (sent) ctx.mail.kick();
  return { ok: true as const, message: RESET_ANSWER };
}
