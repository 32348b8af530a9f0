import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { loadSessionUser } from '../accounts/users';

/** The signed-in dealer as onboarding needs them: the record read with the session, or read now. */
export async function ownDealer(ctx: Context & { user: User }) {
  const record =
    ctx.user.record ?? (await loadSessionUser(ctx.db, { userId: ctx.user.id, role: ctx.user.role }))?.record;
  if (!record) throw new AppError('UNAUTHORIZED', 'Please sign in');
  return record;
}
