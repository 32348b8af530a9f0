import { changeOwnPasswordInput, fieldErrorsOf as schemaFieldErrors } from '@dn/schema';
import { Badge, Button, Card, Group, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fieldErrorsOf, useTrpc } from '../../lib/trpc';

const when = (d: Date | string | null) =>
  d
    ? new Date(d).toLocaleString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })
    : '-';

/** Change password, the list of live sessions and "sign out everywhere" (issue 15). */
export function SecurityCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.account.sessions.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.account.sessions.pathFilter());
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '' },
    validate: (v) => {
      const r = changeOwnPasswordInput.safeParse(v);
      return r.success ? {} : schemaFieldErrors(r.error);
    },
  });
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Password changed',
          message: `Your other sessions (${r.otherSessionsEnded}) were signed out. We emailed you a notice.`,
          color: 'green',
        });
        form.reset();
        void refresh();
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
        else notifications.show({ title: 'Could not change the password', message: error.message, color: 'red' });
      },
    }),
  );
  const everywhere = useMutation(
    trpc.account.signOutEverywhere.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Signed out everywhere else',
          message: `${r.ended} other session(s) ended.`,
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
      <form noValidate onSubmit={form.onSubmit((v) => change.mutate(v))}>
        <Stack gap="sm" mt="md">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description="At least 6 characters"
            {...form.getInputProps('newPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
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
      <Group justify="flex-end" mt="sm">
        <Button variant="light" color="red" onClick={() => everywhere.mutate()} loading={everywhere.isPending}>
          Sign out everywhere else
        </Button>
      </Group>
    </Card>
  );
}
