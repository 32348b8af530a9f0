import { ADMIN_MESSAGES } from '@dn/schema';
import { type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferInput, inferOutput } from '@trpc/tanstack-react-query';
import { useTrpc } from '../../shared/lib/trpc';
import {
  type AdminMutationExtra,
  type AdminMutationSpec,
  type AnyMutation,
  showAdminFailure,
  showNotice,
} from './admin-mutation';
import { type UndoableAction, useDecisionNotice } from './use-decision';

/**
 * The console's one mutation hook: the procedure's mutation with the spec's toasts and
 * invalidation. A screen's own `onSuccess` runs after the toast and before the refresh.
 */
export function useAdminMutation<P extends AnyMutation>(spec: AdminMutationSpec<P>, extra: AdminMutationExtra<P> = {}) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const notice = useDecisionNotice();
  const { onSuccess, onError, ...rest } = extra;
  const base = spec.procedure(trpc).mutationOptions() as UseMutationOptions<inferOutput<P>, Error, inferInput<P>>;
  return useMutation<inferOutput<P>, Error, inferInput<P>>({
    ...base,
    ...rest,
    onSuccess: async (data, input) => {
      const { success } = spec;
      if (success && typeof success === 'object' && 'decision' in success) {
        const action = (data as { action?: UndoableAction | null }).action;
        notice(success.decision, action ? ADMIN_MESSAGES.decided.detail : ADMIN_MESSAGES.decided.nothing, action);
      } else if (success) showNotice(typeof success === 'function' ? success(data, input) : success, 'green');
      await onSuccess?.(data, input);
      await Promise.all(spec.invalidates(trpc).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (...args) => {
      if (onError) return onError(...args);
      showAdminFailure(spec.failure, args[0]);
    },
  });
}
