import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTrpc } from '../../lib/trpc';

/** The applicant's private status link (issue 15): whether it is live, and Revoke (its page then answers 404). */
export function StatusLinkControl({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const state = useQuery(trpc.statusLinks.state.queryOptions({ id: dealerId }));
  const revoke = useMutation(
    trpc.statusLinks.revoke.mutationOptions({
      onSuccess: () => {
        notifications.show({ title: 'Status link revoked', message: 'The applicant’s link now shows “not found”.' });
        void queryClient.invalidateQueries(trpc.statusLinks.pathFilter());
        void queryClient.invalidateQueries(trpc.admin.pathFilter());
      },
      onError: (e) => notifications.show({ title: 'Could not revoke', message: e.message, color: 'red' }),
    }),
  );
  if (!state.data) return null;
  return (
    <Group justify="space-between" mb="md" data-testid="status-link-control">
      <Text size="sm">Application status link: {state.data.live ? 'live' : 'none or revoked'}</Text>
      {state.data.live && (
        <Button
          size="xs"
          variant="light"
          color="red"
          loading={revoke.isPending}
          onClick={() => revoke.mutate({ id: dealerId })}
        >
          Revoke status link
        </Button>
      )}
    </Group>
  );
}
