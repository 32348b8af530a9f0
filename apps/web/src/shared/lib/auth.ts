import type { PublicUser } from '@dn/api';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { postJson } from './api';
import { meQueryOptions } from './me-query';
import { ME_QUERY_KEY } from './query-keys';

export { ME_QUERY_KEY, meQueryOptions };

/** After a sign-in (or a 401 elsewhere): what the current-user query now knows. */
export function setCurrentUser(queryClient: QueryClient, user: PublicUser | null): void {
  queryClient.setQueryData(ME_QUERY_KEY, user);
}

/**
 * What every sign-in does next (SPEC section 4): the current user is known and refetched,
 * then admins go to /admin and everyone else to /dashboard.
 */
export function useAfterSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The job offer an installer's email linked to (issue 47): a dealer lands on it.
  const { offer } = useSearch({ strict: false }) as { offer?: string };
  return async (user: PublicUser, refetch = true) => {
    setCurrentUser(queryClient, user);
    if (refetch) await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    if (user.role !== 'admin' && offer) return navigate({ to: '/dashboard', search: { offer } });
    await navigate({ to: user.role === 'admin' ? '/admin' : '/dashboard' });
  };
}

export function useAuth() {
  const q = useQuery(meQueryOptions());
  const user = q.isError ? null : (q.data ?? null);
  return {
    user,
    isLoading: q.isLoading,
    isAuthenticated: !!user,
    isAdmin: user?.role === 'admin',
  };
}

/** Sign out (SPEC section 4): on success clear every cached query and reload at the root path. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postJson('/api/auth/logout'),
    onSuccess: () => {
      queryClient.clear();
      window.location.assign('/');
    },
  });
}
