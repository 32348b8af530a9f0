import type { login } from '@dn/schema';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';
import { verifyPassword } from '../lib/password';
import type { Context } from '../trpc/context';
import { audit } from './audit';
import { check, clear, hit } from './rate-limit';
import { findAdminByUsername, findDealerCredentials, loadSessionUser, publicUser } from './users';

type Credentials = z.output<typeof login>;

export const STATUS_MESSAGES: Record<string, string> = {
  pending: 'Your application is still under review. You can sign in once it has been approved.',
  rejected: 'Your dealer application was not approved, so this account cannot sign in. Please contact support.',
  inactive: 'Your dealer account is inactive. Please contact support to reactivate it.',
  suspended: 'Your dealer account is suspended. Please contact support.',
};

async function guard(ctx: Context, scope: 'admin' | 'dealer', account: string) {
  await check(
    ctx.db,
    [`login:ip:${ctx.meta.ip}`, ctx.limits.loginPerIp],
    [`login:${scope}:${account.toLowerCase()}`, ctx.limits.loginPerAccount],
  );
}

async function failed(ctx: Context, scope: 'admin' | 'dealer', account: string, message: string) {
  // guard() refused a spent budget before the attempt, so these only count it.
  await hit(ctx.db, `login:ip:${ctx.meta.ip}`, ctx.limits.loginPerIp);
  await hit(ctx.db, `login:${scope}:${account.toLowerCase()}`, ctx.limits.loginPerAccount);
  await audit(ctx.db, ctx, {
    eventType: 'auth.sign_in_failed',
    category: 'auth',
    message: `Failed ${scope} sign-in`,
    success: false,
    details: { scope, account: account.slice(0, 254) },
  });
  return new AppError('UNAUTHORIZED', message);
}

export async function adminLogin(ctx: Context, input: Credentials) {
  await guard(ctx, 'admin', input.username);
  const admin = await findAdminByUsername(ctx.db, input.username);
  const ok = await verifyPassword(admin?.passwordHash, input.password);
  if (!admin || !ok) throw await failed(ctx, 'admin', input.username, 'Invalid username or password');
  await clear(ctx.db, `login:admin:${input.username.toLowerCase()}`);
  await ctx.session.signIn({ id: admin.id, role: 'admin' });
  await audit(
    ctx.db,
    { ...ctx, user: null },
    {
      eventType: 'auth.signed_in',
      category: 'auth',
      message: `Admin ${admin.username} signed in`,
      details: { role: 'admin', adminId: admin.id },
    },
  );
  const user = await loadSessionUser(ctx.db, { userId: admin.id, role: 'admin' });
  return { user: publicUser(user!) };
}

/** Dealers sign in with their email as the username. */
export async function dealerLogin(ctx: Context, input: Credentials) {
  await guard(ctx, 'dealer', input.username);
  const dealer = await findDealerCredentials(ctx.db, input.username);
  const ok = await verifyPassword(dealer?.password, input.password);
  if (!dealer || !ok) throw await failed(ctx, 'dealer', input.username, 'Invalid email or password');
  await clear(ctx.db, `login:dealer:${input.username.toLowerCase()}`);
  // The status is told only to someone who knows the password.
  const statusMessage = STATUS_MESSAGES[dealer.status];
  if (statusMessage) throw new AppError('FORBIDDEN', statusMessage);
  await ctx.session.signIn({ id: dealer.id, role: 'dealer' });
  await audit(ctx.db, ctx, {
    eventType: 'auth.signed_in',
    category: 'auth',
    message: `Dealer ${dealer.email} signed in`,
    dealerId: dealer.id,
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
