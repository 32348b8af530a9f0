import { DATE_FORMAT } from '@dn/schema';
import { Badge, Button, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { RememberedBrowsers } from '../../components/RememberedBrowsers';
import { useTrpc } from '../../lib/trpc';
import { ChangePasswordForm } from '../account-settings/ChangePasswordForm';

/** Every admin's own account: change the password (other sessions end), see and end sessions. */
export function AccountTab() {
  const trpc = useTrpc();
  const sessions = useQuery(trpc.team.sessions.queryOptions());
  const devices = useQuery(trpc.team.devices.queryOptions());
  const change = useMutation(
    trpc.team.changePassword.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Password changed',
          message: `${r.otherSessionsEnded} other session(s) signed out`,
          color: 'green',
        });
        void sessions.refetch();
        void devices.refetch();
      },
    }),
  );
  const end = useMutation(trpc.team.endSession.mutationOptions({ onSettled: () => sessions.refetch() }));
  return (
    <Stack maw={640}>
      <Title order={4}>Change your password</Title>
      <ChangePasswordForm submit={change.mutateAsync} pending={change.isPending} />
      <Title order={4}>Your sessions</Title>
      {sessions.isLoading ? (
        <Skeleton h={80} />
      ) : (
        <Table>
          <Table.Tbody>
            {sessions.data?.map((s) => (
              <Table.Tr key={s.ref}>
                <Table.Td>Signed in {s.signedInAt ? dayjs(s.signedInAt).format(`${DATE_FORMAT} HH:mm`) : '—'}</Table.Td>
                <Table.Td>Last seen {s.lastSeenAt ? dayjs(s.lastSeenAt).format(`${DATE_FORMAT} HH:mm`) : '—'}</Table.Td>
                <Table.Td>
                  {s.current ? (
                    <Badge>this browser</Badge>
                  ) : (
                    <Button size="xs" variant="light" color="red" onClick={() => end.mutate({ ref: s.ref })}>
                      End
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <RememberedBrowsers items={devices.data ?? []} />
      {sessions.isError && <Text c="red">{sessions.error.message}</Text>}
    </Stack>
  );
}
