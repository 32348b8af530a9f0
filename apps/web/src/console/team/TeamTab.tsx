import { ADMIN_ROLES, type AdminRoleName, DATE_FORMAT, displayDateTime, TEAM_CONFIRM } from '@dn/schema';
import { ConfirmModal, DataTable } from '@dn/ui';
import { Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';

const ROLE_OPTIONS = ADMIN_ROLES.map((r) => ({ value: r, label: r }));

/** The Team tab (owners only): admins and their roles, invitations (issue 14). */
export function TeamTab() {
  const trpc = useTrpc();
  const team = useQuery(trpc.team.list.queryOptions());
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminRoleName>('viewer');
  const invite = useAdminMutation(ADMIN_MUTATIONS.invite, { onSuccess: () => setEmail('') });
  const setRoleOf = useAdminMutation(ADMIN_MUTATIONS.setRole);
  const remove = useAdminMutation(ADMIN_MUTATIONS.removeAdmin);
  const revoke = useAdminMutation(ADMIN_MUTATIONS.revokeInvitation);
  // The app's own dialog, as for every other destructive action (issue 36), not window.confirm().
  const [asking, setAsking] = useState<
    { kind: 'remove'; id: string; name: string } | { kind: 'revoke'; id: string; name: string } | null
  >(null);
  const close = () => setAsking(null);
  return (
    <Stack>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate({ email, role });
        }}
      >
        <Group align="end">
          <TextInput
            label="Invite by email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={invite.error?.message}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            onChange={(v) => v && setRole(v as AdminRoleName)}
            allowDeselect={false}
          />
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </Group>
      </form>
      <DataTable
        rows={team.data?.admins ?? []}
        rowKey={(a) => a.id}
        rowTestId="team-row"
        cards
        query={team}
        empty="No admins."
        columns={[
          {
            header: 'Username',
            cell: (a) => (
              <>
                {a.username} {a.isYou && <Badge size="xs">you</Badge>}
              </>
            ),
          },
          { header: 'Name', cell: (a) => a.fullName },
          {
            header: 'Role',
            cell: (a) => (
              <Select
                aria-label={`Role of ${a.username}`}
                data={ROLE_OPTIONS}
                value={a.role}
                allowDeselect={false}
                onChange={(v) => v && v !== a.role && setRoleOf.mutate({ id: a.id, role: v as AdminRoleName })}
                w={130}
              />
            ),
          },
          { header: 'Since', cell: (a) => dayjs(a.createdAt).format(DATE_FORMAT) },
          {
            header: '',
            cell: (a) => (
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => setAsking({ kind: 'remove', id: a.id, name: a.username })}
              >
                Remove
              </Button>
            ),
          },
        ]}
      />
      <Title order={4}>Pending invitations</Title>
      {team.data?.invitations.length ? (
        team.data.invitations.map((i) => (
          <Group key={i.id} gap="sm" data-testid="invitation-row">
            <Text size="sm">
              {i.email} as {i.role}
              {i.invitedBy ? `, invited by ${i.invitedBy}` : ''}, link valid until {displayDateTime(i.expiresAt)}
            </Text>
            <Button
              size="xs"
              color="red"
              variant="light"
              aria-label={`Revoke the invitation of ${i.email}`}
              loading={revoke.isPending && revoke.variables?.id === i.id}
              onClick={() => setAsking({ kind: 'revoke', id: i.id, name: i.email })}
            >
              Revoke
            </Button>
          </Group>
        ))
      ) : (
        <Text c="dimmed" size="sm">
          None.
        </Text>
      )}
      {asking && (
        <ConfirmModal
          title={TEAM_CONFIRM[asking.kind].title}
          confirmLabel={TEAM_CONFIRM[asking.kind].confirm}
          color="red"
          onClose={close}
          loading={asking.kind === 'remove' ? remove.isPending : revoke.isPending}
          onConfirm={() => (asking.kind === 'remove' ? remove : revoke).mutate({ id: asking.id }, { onSettled: close })}
        >
          <Text size="sm">{TEAM_CONFIRM[asking.kind].body(asking.name)}</Text>
        </ConfirmModal>
      )}
    </Stack>
  );
}
