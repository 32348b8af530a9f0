import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { loadSessionUser } from '../accounts/users';

/** The signed-in dealer's own record, shaped for the dashboard: never a hash. Normally read with the session. */
export async function dealerInfo(ctx: Context & { user: User }) {
  if (ctx.user.record) return ctx.user.record;
  const user = await loadSessionUser(ctx.db, { userId: ctx.user.id, role: ctx.user.role });
  if (!user?.record) throw new AppError('UNAUTHORIZED', 'Please sign in');
  return user.record;
}

/** dealerInfo's answer is the record read with the session: it is its own version (decision 0790). */
export function dealerInfoVersion(ctx: Context & { user: User }): string | null {
  return ctx.user.record ? JSON.stringify(ctx.user.record) : null;
}
