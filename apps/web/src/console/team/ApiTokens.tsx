import { displayDateTime } from '@dn/schema';
import {
  API_TOKEN_EXPIRIES,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPES,
  type ApiTokenScopeName,
  API_TOKEN_MESSAGES as M,
} from '@dn/schema/api-tokens';
import { DataTable } from '@dn/ui';
import { Alert, Badge, Button, Code, CopyButton, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { adminMutation } from '../shared/admin-mutation';
import { useAdminMutation } from '../shared/use-admin-mutation';

const tokens = (t: ReturnType<typeof useTrpc>) => [t.apiTokens.pathKey()];
const CREATE = adminMutation({ procedure: (t) => t.apiTokens.create, ...M.create, invalidates: tokens });
const REVOKE = adminMutation({ procedure: (t) => t.apiTokens.revoke, ...M.revoke, invalidates: tokens });
const SCOPES = API_TOKEN_SCOPES.map((s) => ({ value: s, label: s === 'read' ? 'Read only' : 'Read and write' }));
const EXPIRIES = API_TOKEN_EXPIRIES.map((d) => ({ value: String(d), label: `${d} days` }));
const when = (d: Date | string | null) => (d ? displayDateTime(d) : 'never');

/**
 * Personal API tokens (issue 40, decision 0980), in the Team section, loaded with it on demand:
 * create one (shown once), see every token's last use, revoke.
 */
export function ApiTokens() {
  const trpc = useTrpc();
  const list = useQuery(trpc.apiTokens.list.queryOptions());
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScopeName>('read');
  const [days, setDays] = useState('90');
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const create = useAdminMutation(CREATE, {
    onSuccess: (r) => {
      setShown({ name: r.name, token: r.token });
      setName('');
    },
  });
  const revoke = useAdminMutation(REVOKE);
  return (
    <Stack>
      <Title order={4}>API tokens</Title>
      <Text size="sm" c="dimmed">
        For scripts: send <Code>Authorization: Bearer &lt;token&gt;</Code> to /api or /trpc. A token acts with your
        role; a read-only one makes no changes. Tokens cannot sign in or manage passwords or tokens.
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name, scope, expiresInDays: Number(days) });
        }}
      >
        <Group align="end">
          <TextInput
            label="Token name"
            required
            maxLength={API_TOKEN_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={create.error?.message}
          />
          <Select
            label="Scope"
            data={SCOPES}
            value={scope}
            onChange={(v) => v && setScope(v as ApiTokenScopeName)}
            allowDeselect={false}
          />
          <Select
            label="Expires in"
            data={EXPIRIES}
            value={days}
            onChange={(v) => v && setDays(v)}
            allowDeselect={false}
          />
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </form>
      {shown && (
        <Alert color="yellow" title={`Token "${shown.name}"`} withCloseButton onClose={() => setShown(null)}>
          <Stack gap="xs">
            <Text size="sm">{M.shownOnce}</Text>
            <Group gap="xs">
              <Code data-testid="new-api-token">{shown.token}</Code>
              <CopyButton value={shown.token}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <DataTable
        rows={list.data ?? []}
        rowKey={(t) => t.id}
        rowTestId="api-token-row"
        cards
        query={list}
        empty="No API tokens."
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Scope', cell: (t) => t.scope },
          { header: 'Made by', cell: (t) => t.createdBy },
          { header: 'Last used', cell: (t) => when(t.lastUsedAt) },
          { header: 'Expires', cell: (t) => when(t.expiresAt) },
          {
            header: '',
            cell: (t) =>
              t.status === 'active' ? (
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  aria-label={`Revoke the API token ${t.name}`}
                  loading={revoke.isPending && revoke.variables?.id === t.id}
                  onClick={() => {
                    if (window.confirm(`Revoke the API token "${t.name}"? Scripts using it stop working at once.`))
                      revoke.mutate({ id: t.id });
                  }}
                >
                  Revoke
                </Button>
              ) : (
                <Badge color="gray" variant="light">
                  {t.status}
                </Badge>
              ),
          },
        ]}
      />
    </Stack>
  );
}
