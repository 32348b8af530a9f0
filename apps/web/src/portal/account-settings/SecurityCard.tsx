import { displayDateTime, plural } from '@dn/schema';
import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChangePasswordForm } from '../../shared/auth/ChangePasswordForm';
import { RememberedBrowsers } from '../../shared/components/RememberedBrowsers';
import { useTrpc } from '../../shared/lib/trpc';

const when = (d: Date | string | null) => (d ? displayDateTime(d) : '-');

/** Change password, the list of live sessions and "sign out everywhere" (issue 15). */
export function SecurityCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.account.sessions.queryOptions());
  const devices = useQuery(trpc.account.devices.queryOptions());
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.account.sessions.pathFilter());
    return queryClient.invalidateQueries(trpc.account.devices.pathFilter());
  };
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Password changed',
          message: `Your other sessions (${r.otherSessionsEnded}) were signed out. We emailed you a notice.`,
          color: 'green',
        });
        void refresh();
      },
    }),
  );
  const everywhere = useMutation(
    trpc.account.signOutEverywhere.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Signed out everywhere else',
          message: `${plural(r.ended, 'other session')} ended.`,
          color: 'green',
        });
        void refresh();
      },
    }),
  );
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="security-title">
      <Title order={2} size="h3" id="security-title">
        Security
      </Title>
      <Stack mt="md">
        <ChangePasswordForm submit={change.mutateAsync} pending={change.isPending} />
      </Stack>
      <Title order={3} size="h4" mt="lg">
        Where you are signed in
      </Title>
      <Table mt="xs" data-testid="session-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Device</Table.Th>
            <Table.Th>Last seen</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(sessions.data ?? []).map((s) => (
            <Table.Tr key={s.ref}>
              <Table.Td>
                {s.device ?? 'Unknown device'}{' '}
                {s.current && (
                  <Badge size="sm" variant="light">
                    This browser
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{when(s.lastSeenAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {sessions.data && sessions.data.length === 0 && <Text size="sm">No sessions.</Text>}
      <RememberedBrowsers items={devices.data ?? []} />
      <Group justify="flex-end" mt="sm">
        <Button variant="light" color="red" onClick={() => everywhere.mutate()} loading={everywhere.isPending}>
          Sign out everywhere else
        </Button>
      </Group>
    </Card>
  );
}
