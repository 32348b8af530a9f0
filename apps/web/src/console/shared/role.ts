import type { AdminRoleName } from '@dn/schema';
import { useAuth } from '../../shared/lib/auth';

const RANK: Record<AdminRoleName, number> = { viewer: 0, reviewer: 1, owner: 2 };

/**
 * The signed-in admin's role, for showing only the controls it may use (a courtesy: the server
 * refuses anyway, docs/decisions/0610-admin-roles.md).
 */
export function useAdminRole() {
  const { user } = useAuth();
  const role = (user?.adminRole ?? null) as AdminRoleName | null;
  return { role, can: (needs: AdminRoleName) => role !== null && RANK[role] >= RANK[needs] };
}
