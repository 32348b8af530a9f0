import { USER_STALE_TIME_MS } from '@dn/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { trpc } from './trpc';

/** The current user query of SPEC section 7: no retry, no refetch on mount or focus, fresh 10 minutes. */
export const meQueryOptions = () =>
  trpc.auth.me.queryOptions(undefined, {
    staleTime: USER_STALE_TIME_MS,
    retry: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
  });

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
  return useMutation(
    trpc.auth.logout.mutationOptions({
      onSuccess: async () => {
        queryClient.clear();
        window.location.assign('/');
      },
    }),
  );
}
