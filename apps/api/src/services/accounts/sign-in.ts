import { findAdminByUsername, findDealerCredentials } from '@dn/db/queries/accounts';
import type { login } from '@dn/schema';
import type { z } from 'zod';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { verifyPassword } from '../../lib/password';
import { audit } from '../audit/audit';
import { deviceAccount, knownDevice, rememberDevice } from './devices';
import { noticeLock, type SignInScope, sharedLoginKey } from './lock-notice';
import { type KeyedLimit, release, spendCounting } from './rate-limit';
import { loadSessionUser, publicUser } from './users';

type Credentials = z.output<typeof login>;

/**
 * Failed sign-ins and lockouts since this process started, for /metrics (issue 40): counters a
 * scrape reads, so an alert sees a guessing campaign without reading the audit trail.
 */
export const signInCounts = { failures: 0, lockouts: 0 };

export const STATUS_MESSAGES: Record<string, string> = {
  pending: 'Your application is still under review. You can sign in once it has been approved.',
  rejected: 'Your dealer application was not approved, so this account cannot sign in. Please contact support.',
  inactive: 'Your dealer account is inactive. Please contact support to reactivate it.',
  suspended: 'Your dealer account is suspended. Please contact support.',
};

/**
 * Count first, then verify (decision 0630): the attempt spends its per-IP and per-account budgets
 * in one statement before any password work, so a burst (concurrent requests, a tRPC batch) gets
 * at most the budget's number of hashes. Returns the reservation, released only on success. Used
 * by sign-in and by the current-password check of a password change (issue 35, finding 2).
 */
export async function reserveSignIn(ctx: Context, scope: SignInScope, account: string): Promise<string[]> {
  // A browser whose device cookie names this account and is on record (decision 0630, issue 35)
  // spends a budget of its own; unknown clients share the account's, so whoever locks that out
  // does not lock the owner. The device's attempts still add to the shared window, whose lock the
  // owner is told of: a known device cannot guess silently.
  const device = await knownDevice(ctx, deviceAccount(scope, account));
  const shared: KeyedLimit = [sharedLoginKey(scope, account), ctx.limits.loginPerAccount];
  const perIp: KeyedLimit = [`login:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.loginPerIp];
  try {
    return device
      ? await spendCounting(ctx.db, [perIp, [`${shared[0]}:device:${device}`, ctx.limits.loginPerAccount]], [shared])
      : await spendCounting(ctx.db, [perIp, shared], []);
  } catch (err) {
    // A lockout shows in the Activity tab with the account it protected (issue 14).
    if (err instanceof AppError && err.code === 'RATE_LIMITED') {
      signInCounts.lockouts++;
      await audit(ctx.db, ctx, {
        eventType: 'auth.locked_out',
        category: 'auth',
        message: `Locked out ${scope} sign-in`,
        success: false,
        details: { scope, account: account.slice(0, 254) },
      });
      await tellOwner(ctx, scope, account);
    }
    throw err;
  }
}

/** The owner hears once per lock window that the shared budget is spent (decision 0700). */
export async function tellOwner(ctx: Context, scope: SignInScope, account: string) {
  try {
    await noticeLock(ctx, scope, account, ctx.limits.loginPerAccount.max);
  } catch (err) {
    // The attempt's answer (401 or 429) does not depend on the notice; a failure is logged.
    ctx.log.error({ err, scope }, 'sign-in lock notice failed');
  }
}

async function failed(ctx: Context, scope: SignInScope, account: string, message: string) {
  // reserveSignIn() already counted this attempt against every budget.
  signInCounts.failures++;
  await audit(ctx.db, ctx, {
    eventType: 'auth.sign_in_failed',
    category: 'auth',
    message: `Failed ${scope} sign-in`,
    success: false,
    details: { scope, account: account.slice(0, 254) },
  });
  // This failure may have been the one that spent the shared budget: its owner is told.
  await tellOwner(ctx, scope, account);
  return new AppError('UNAUTHORIZED', message);
}

export async function adminLogin(ctx: Context, input: Credentials) {
  const reservation = await reserveSignIn(ctx, 'admin', input.username);
  const admin = await findAdminByUsername(ctx.db, input.username);
  const ok = await verifyPassword(admin?.passwordHash, input.password, deviceAccount('admin', input.username));
  if (!admin || !ok) throw await failed(ctx, 'admin', input.username, 'Invalid username or password');
  // Only this attempt's own hit is given back: failures counted by others stay counted.
  await release(ctx.db, reservation);
  await ctx.session.signIn({ id: admin.id, role: 'admin' });
  await rememberDevice(ctx, deviceAccount('admin', input.username), { adminId: admin.id });
  await audit(
    ctx.db,
    { ...ctx, user: null },
    {
      eventType: 'auth.signed_in',
      category: 'auth',
      message: `Admin ${admin.username} signed in`,
      // `account`: the Activity log's Actor for a sign-in row, as for a failed one (issue 36).
      details: { role: 'admin', adminId: admin.id, account: admin.username },
    },
  );
  const user = await loadSessionUser(ctx.db, { userId: admin.id, role: 'admin' });
  return { user: publicUser(user!) };
}

/** Dealers sign in with their email as the username. */
export async function dealerLogin(ctx: Context, input: Credentials) {
  const reservation = await reserveSignIn(ctx, 'dealer', input.username);
  const dealer = await findDealerCredentials(ctx.db, input.username);
  const ok = await verifyPassword(dealer?.password, input.password, deviceAccount('dealer', input.username));
  if (!dealer || !ok) throw await failed(ctx, 'dealer', input.username, 'Invalid email or password');
  await release(ctx.db, reservation);
  // The status is told only to someone who knows the password.
  const statusMessage = STATUS_MESSAGES[dealer.status];
  if (statusMessage) throw new AppError('FORBIDDEN', statusMessage);
  await ctx.session.signIn({ id: dealer.id, role: 'dealer' });
  await rememberDevice(ctx, deviceAccount('dealer', input.username), { dealerId: dealer.id });
  await audit(ctx.db, ctx, {
    eventType: 'auth.signed_in',
    category: 'auth',
    message: `Dealer ${dealer.email} signed in`,
    dealerId: dealer.id,
    details: { account: dealer.email },
  });
  const user = await loadSessionUser(ctx.db, { userId: dealer.id, role: 'dealer' });
  return { user: publicUser(user!) };
}

export function currentUser(ctx: Context) {
  if (!ctx.user) throw new AppError('UNAUTHORIZED', 'Not signed in');
  return publicUser(ctx.user);
}

export async function logout(ctx: Context) {
  await ctx.session.signOut();
  return { ok: true as const };
}
