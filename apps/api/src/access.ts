import type { AdminRole } from '@dn/db';
import { ACCESS_DENIED } from '@dn/schema';
import { API_TOKEN_MESSAGES } from '@dn/schema/api-tokens';
import type { User } from './context';
import { AppError } from './lib/app-error';

export type { AdminRole } from '@dn/db';

/** Who may call an endpoint: a procedure's is set by its builder (trpc/init.ts), a route's declared (http/route.ts). */
export type Access = 'public' | 'signed-in' | 'dealer' | 'admin';

/** Each admin role may do what the roles below it may (docs/decisions/0610-admin-roles.md). */
const RANK: Record<AdminRole, number> = { viewer: 0, reviewer: 1, owner: 2 };

/** Whether an admin of role `has` may do what needs `needs`. */
export const roleAllows = (has: AdminRole | null | undefined, needs: AdminRole): boolean =>
  has != null && RANK[has] >= RANK[needs];

/**
 * The one access rule: the procedure builders (trpc/init.ts) and every HTTP route, by its
 * declaration (http/serve.ts), call it. `role` is the least admin role an admin endpoint needs (viewer when omitted).
 */
export function assertAccess(user: User | null, access: Access, role: AdminRole = 'viewer'): asserts user is User {
  if (access === 'public') return;
  if (!user) throw new AppError('UNAUTHORIZED', 'Please sign in');
  if (access === 'dealer' && user.role !== 'dealer') throw new AppError('FORBIDDEN', 'This is for dealer accounts');
  if (access === 'admin' && (user.role !== 'admin' || !roleAllows(user.adminRole, role))) {
    throw new AppError('FORBIDDEN', ACCESS_DENIED);
  }
}

/**
 * What a personal API token may not do (decision 0980), or null: a read token makes no change
 * (`writes`: a mutation, or an HTTP method other than GET), and no token signs in, sets a password,
 * manages sessions or tokens (`sessionOnly`: the procedure's `.meta(sessionOnly)`).
 */
export function tokenRefusal(user: User | null, writes: boolean, sessionOnly: boolean): AppError | null {
  if (!user?.token) return null;
  if (sessionOnly) return new AppError('FORBIDDEN', API_TOKEN_MESSAGES.notForThis);
  if (writes && user.token.scope !== 'read-write') return new AppError('FORBIDDEN', API_TOKEN_MESSAGES.readOnly);
  return null;
}
