import { DATE_FORMAT, DEFAULT_PAYOUT_MINIMUM, displayMoney } from '@dn/schema';
import { ConfirmModal, DataTable } from '@dn/ui';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { useAdminRole } from '../admin-team/role';

/** Payout batches: create one above a minimum, download its CSV, mark it paid with a reference. */
export function PayoutsPanel({ onChange }: { onChange: () => void }) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const queryClient = useQueryClient();
  const [minimum, setMinimum] = useState(DEFAULT_PAYOUT_MINIMUM);
  const [paying, setPaying] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const payouts = useQuery(trpc.commissions.payouts.queryOptions());
  const after = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.commissions.pathKey() });
    onChange();
  };
  const create = useMutation(
    trpc.commissions.createPayout.mutationOptions({
      onSuccess: async (p) => {
        notifications.show({
          title: 'Payout batch created',
          message: `${displayMoney(p.total)} for ${p.recruiterCount} recruiters`,
          color: 'green',
        });
        await after();
      },
      onError: (e) => notifications.show({ title: 'Failed to create payout batch', message: e.message, color: 'red' }),
    }),
  );
  const markPaid = useMutation(
    trpc.commissions.markPaid.mutationOptions({
      onSuccess: async () => {
        notifications.show({ title: 'Payout marked paid', message: 'Each recruiter is emailed.', color: 'green' });
        setPaying(null);
        setReference('');
        await after();
      },
      onError: (e) => notifications.show({ title: 'Failed to mark payout paid', message: e.message, color: 'red' }),
    }),
  );
  return (
    <Stack>
      <Group align="flex-end">
        <TextInput
          label="Minimum per recruiter ($)"
          value={minimum}
          onChange={(e) => setMinimum(e.currentTarget.value)}
          w={200}
        />
        {can('owner') && (
          <Button loading={create.isPending} onClick={() => create.mutate({ minimum })}>
            Create payout batch
          </Button>
        )}
      </Group>
      {payouts.data && payouts.data.length === 0 && <Text c="dimmed">No payout batches yet.</Text>}
      {payouts.data && payouts.data.length > 0 && (
        <DataTable
          rows={payouts.data}
          rowKey={(p) => p.id}
          rowTestId="payout-row"
          columns={[
            { header: 'Created', cell: (p) => dayjs(p.createdAt).format(DATE_FORMAT) },
            { header: 'Total', cell: (p) => displayMoney(p.total) },
            { header: 'Recruiters', cell: (p) => p.recruiterCount },
            { header: 'Entries', cell: (p) => p.commissionCount },
            { header: 'Status', cell: (p) => (p.status === 'paid' ? `paid (${p.reference})` : 'created') },
            {
              header: '',
              cell: (p) => (
                <Group gap="xs" wrap="nowrap">
                  {can('owner') && (
                    <Anchor href={`/api/admin/payouts/${p.id}/export`} download>
                      Download CSV
                    </Anchor>
                  )}
                  {p.status === 'created' && can('owner') && (
                    <Button size="xs" onClick={() => setPaying(p.id)}>
                      Mark paid
                    </Button>
                  )}
                </Group>
              ),
            },
          ]}
        />
      )}
      <ConfirmModal
        opened={paying !== null}
        title="Mark payout paid"
        onClose={() => setPaying(null)}
        confirmLabel="Confirm paid"
        disabled={!reference.trim()}
        loading={markPaid.isPending}
        onConfirm={() => paying && markPaid.mutate({ id: paying, reference })}
      >
        <TextInput label="Payment reference" value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
      </ConfirmModal>
    </Stack>
  );
}
