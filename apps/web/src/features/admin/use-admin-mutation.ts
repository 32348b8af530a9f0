import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTrpc } from '../../lib/trpc';

/**
 * What every admin mutation does after it settles: the spec's failure toast (with the server's
 * message) or a success toast, and a refresh of every admin view.
 */
export function useAdminFeedback() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return (failure: string, success: string, after?: () => void) => ({
    onSuccess: async () => {
      notifications.show({ title: success, message: '', color: 'green' });
      after?.();
      await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
    },
    onError: (error: { message: string }) => {
      notifications.show({ title: failure, message: error.message || 'Please try again.', color: 'red' });
    },
  });
}
