import { DATE_FORMAT } from '@dn/schema';
import { Badge, Button, Group, PasswordInput, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../lib/trpc';

/** Every admin's own account: change the password (other sessions end), see and end sessions. */
export function AccountTab() {
  const trpc = useTrpc();
  const sessions = useQuery(trpc.team.sessions.queryOptions());
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const change = useMutation(
    trpc.team.changePassword.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Password changed',
          message: `${r.otherSessionsEnded} other session(s) signed out`,
          color: 'green',
        });
        setCurrent('');
        setNew('');
        void sessions.refetch();
      },
    }),
  );
  const end = useMutation(trpc.team.endSession.mutationOptions({ onSettled: () => sessions.refetch() }));
  const errors = fieldErrorsOf(change.error) ?? {};
  return (
    <Stack maw={640}>
      <Title order={4}>Change your password</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate({ currentPassword, newPassword });
        }}
      >
        <Stack>
          <PasswordInput
            label="Current password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={errors.currentPassword}
            required
          />
          <PasswordInput
            label="New password"
            value={newPassword}
            onChange={(e) => setNew(e.currentTarget.value)}
            error={errors.newPassword}
            required
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
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
      {sessions.isError && <Text c="red">{sessions.error.message}</Text>}
    </Stack>
  );
}
