import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** The applicant's private status link (issue 15): whether it is live, and Revoke (its page then answers 404). */
export function StatusLinkControl({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const state = useQuery(trpc.statusLinks.state.queryOptions({ id: dealerId }));
  const revoke = useAdminMutation(ADMIN_MUTATIONS.revokeStatusLink);
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
