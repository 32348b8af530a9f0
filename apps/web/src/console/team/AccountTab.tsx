import { displayDateTime } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Badge, Button, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ChangePasswordForm } from '../../shared/auth/ChangePasswordForm';
import { RememberedBrowsers } from '../../shared/components/RememberedBrowsers';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';

const when = (at: string | Date | null) => (at ? displayDateTime(at) : '—');

/** Every admin's own account: change the password (other sessions end), see and end sessions. */
export function AccountTab() {
  const trpc = useTrpc();
  const sessions = useQuery(trpc.team.sessions.queryOptions());
  const devices = useQuery(trpc.team.devices.queryOptions());
  // The form shows a refused password under its field (or the spec's words): no second toast.
  const change = useAdminMutation(ADMIN_MUTATIONS.changePassword, { onError: () => undefined });
  const end = useAdminMutation(ADMIN_MUTATIONS.endSession);
  return (
    <Stack maw={640}>
      <Title order={4}>Change your password</Title>
      <ChangePasswordForm submit={change.mutateAsync} pending={change.isPending} />
      <Title order={4}>Your sessions</Title>
      <DataTable
        rows={sessions.data ?? []}
        rowKey={(s) => s.ref}
        rowTestId="own-session-row"
        cards
        query={sessions}
        empty="No sessions."
        columns={[
          { header: 'Signed in', cell: (s) => when(s.signedInAt) },
          { header: 'Last seen', cell: (s) => when(s.lastSeenAt) },
          {
            header: '',
            cell: (s) =>
              s.current ? (
                <Badge>this browser</Badge>
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  loading={end.isPending && end.variables?.ref === s.ref}
                  onClick={() => end.mutate({ ref: s.ref })}
                >
                  End
                </Button>
              ),
          },
        ]}
      />
      <RememberedBrowsers items={devices.data ?? []} />
    </Stack>
  );
}
