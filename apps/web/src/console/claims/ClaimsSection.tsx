import type { AppRouter } from '@dn/api';
import {
  CLAIM_KINDS,
  type ClaimKind,
  claimStatus,
  incentiveFigure,
  CLAIM_ADMIN_MESSAGES as M,
  sourceLink,
  US_STATE_CODES,
} from '@dn/schema/claims';
import { ConfirmModal, DataTable } from '@dn/ui';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { fieldErrorsOf, type Trpc, useTrpc } from '../../shared/lib/trpc';
import { adminMutation } from '../shared/admin-mutation';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';

type ClaimItem = inferRouterOutputs<AppRouter>['admin']['claims']['items'][number];

// Claims are read by the public pages too (their own REST key): the console refreshes its own list.
const claims = (t: Trpc) => [t.admin.claims.pathKey()];
const MUTATIONS = {
  create: adminMutation({ procedure: (t) => t.admin.createClaim, ...M.create, invalidates: claims }),
  update: adminMutation({ procedure: (t) => t.admin.updateClaim, ...M.update, invalidates: claims }),
  remove: adminMutation({ procedure: (t) => t.admin.deleteClaim, ...M.remove, invalidates: claims }),
};

const STATUS_COLOR = { inEffect: 'green', ended: 'gray', upcoming: 'blue' } as const;

/** Issue 37, "Homeowner truth" (decision 0930): the owners' screen for claims and incentives. */
export function ClaimsSection() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const list = useQuery(trpc.admin.claims.queryOptions());
  const [editing, setEditing] = useState<ClaimItem | 'new' | null>(null);
  const [removing, setRemoving] = useState<ClaimItem | null>(null);
  const today = list.data?.today ?? '';
  const owner = can('owner');
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {M.intro}
      </Text>
      {owner ? (
        <Button w="fit-content" onClick={() => setEditing('new')}>
          Add claim or incentive
        </Button>
      ) : (
        <Text size="sm" data-testid="claims-owners-only">
          {M.ownersOnly}
        </Text>
      )}
      <DataTable
        rows={list.data?.items ?? []}
        rowKey={(c) => c.id}
        rowTestId="claim-row"
        cards
        query={list}
        empty="No claims or incentives yet."
        columns={[
          { header: 'Text', cell: (c) => c.text },
          {
            header: 'Kind',
            cell: (c) => (
              <Stack gap={2}>
                <Text size="sm">{c.kind === 'incentive' ? 'Incentive' : 'Claim'}</Text>
                {incentiveFigure(c) && <Text size="xs">{incentiveFigure(c)}</Text>}
              </Stack>
            ),
          },
          {
            header: 'In effect',
            cell: (c) => {
              const s = claimStatus(c, today);
              return (
                <Stack gap={2}>
                  <Badge color={STATUS_COLOR[s]} variant="light" style={{ maxWidth: 'none' }}>
                    {M.status[s]}
                  </Badge>
                  <Text size="xs">
                    {c.effectiveFrom ?? 'always'} – {c.effectiveUntil ?? 'no end'}
                  </Text>
                </Stack>
              );
            },
          },
          {
            header: 'Where',
            cell: (c) =>
              [c.state, c.zipPrefixes.length ? `ZIP ${c.zipPrefixes.join(', ')}` : null].filter(Boolean).join('; ') ||
              'Everywhere',
          },
          { header: 'Source', cell: (c) => <Source source={c.source} /> },
          {
            header: '',
            cell: (c) =>
              owner && (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => setEditing(c)}>
                    Edit
                  </Button>
                  <Button size="xs" variant="light" color="red" onClick={() => setRemoving(c)}>
                    Remove
                  </Button>
                </Group>
              ),
          },
        ]}
      />
      {editing && <ClaimDialog claim={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {removing && <RemoveDialog claim={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function Source({ source }: { source: string }) {
  const link = sourceLink(source);
  const citation = link
    ? source
        .replace(link, '')
        .replace(/\s*[—-]\s*$/, '')
        .trim()
    : source;
  return (
    <Stack gap={2}>
      {citation && <Text size="xs">{citation}</Text>}
      {link && (
        <Anchor size="xs" href={link} target="_blank" rel="noopener noreferrer">
          {new URL(link).hostname}
        </Anchor>
      )}
    </Stack>
  );
}

function RemoveDialog({ claim, onClose }: { claim: ClaimItem; onClose: () => void }) {
  const remove = useAdminMutation(MUTATIONS.remove, { onSuccess: onClose });
  return (
    <ConfirmModal
      title="Remove claim"
      confirmLabel="Remove"
      color="red"
      onClose={onClose}
      loading={remove.isPending}
      onConfirm={() => remove.mutate({ id: claim.id })}
    >
      <Text size="sm">{M.confirmRemove(claim.text)}</Text>
    </ConfirmModal>
  );
}

interface Draft {
  text: string;
  kind: ClaimKind;
  percent: string;
  amount: string;
  cap: string;
  source: string;
  effectiveFrom: string;
  effectiveUntil: string;
  state: string;
  zipPrefixes: string;
}

const draftOf = (c: ClaimItem | null): Draft => ({
  text: c?.text ?? '',
  kind: c?.kind ?? 'incentive',
  percent: c?.percent ?? '',
  amount: c?.amount ?? '',
  cap: c?.cap ?? '',
  source: c?.source ?? '',
  effectiveFrom: c?.effectiveFrom ?? '',
  effectiveUntil: c?.effectiveUntil ?? '',
  state: c?.state ?? '',
  zipPrefixes: c?.zipPrefixes.join(', ') ?? '',
});

function ClaimDialog({ claim, onClose }: { claim: ClaimItem | null; onClose: () => void }) {
  const [d, setD] = useState<Draft>(() => draftOf(claim));
  const create = useAdminMutation(MUTATIONS.create, { onSuccess: onClose });
  const update = useAdminMutation(MUTATIONS.update, { onSuccess: onClose });
  const pending = create.isPending || update.isPending;
  const errors = fieldErrorsOf(claim ? update.error : create.error);
  const text = (k: keyof Draft) => ({
    value: d[k],
    onChange: (e: { currentTarget: { value: string } }) => setD({ ...d, [k]: e.currentTarget.value }),
    error: errors?.[k],
  });
  const save = () => (claim ? update.mutate({ ...d, id: claim.id }) : create.mutate(d));
  return (
    <Modal opened onClose={onClose} title={claim ? 'Edit claim or incentive' : 'Add claim or incentive'} size="lg">
      <Stack>
        <Textarea label="Text" description="As homeowners read it" autosize minRows={2} {...text('text')} />
        <Select
          label="Kind"
          data={CLAIM_KINDS.map((k) => ({ value: k, label: k === 'incentive' ? 'Incentive' : 'Claim' }))}
          value={d.kind}
          onChange={(v) => v && setD({ ...d, kind: v as ClaimKind })}
          allowDeselect={false}
          error={errors?.kind}
        />
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <TextInput label="Percent" description="Of the installed price" inputMode="decimal" {...text('percent')} />
          <TextInput label="Cap ($)" description="Most a percent gives" inputMode="decimal" {...text('cap')} />
          <TextInput label="Amount ($)" description="Or a fixed amount" inputMode="decimal" {...text('amount')} />
        </SimpleGrid>
        <Textarea label="Source" description="A https:// link, a citation, or both" autosize {...text('source')} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label="Effective from"
            placeholder="YYYY-MM-DD"
            description="Empty: already"
            {...text('effectiveFrom')}
          />
          <TextInput
            label="Effective until"
            placeholder="YYYY-MM-DD"
            description="Empty: no end"
            {...text('effectiveUntil')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Select
            label="State"
            description="Empty: every state"
            data={[...US_STATE_CODES]}
            value={d.state || null}
            onChange={(v) => setD({ ...d, state: v ?? '' })}
            clearable
            searchable
            error={errors?.state}
          />
          <TextInput
            label="ZIP codes or prefixes"
            description="Comma-separated, e.g. 787, 78610"
            {...text('zipPrefixes')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={pending} onClick={save}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
