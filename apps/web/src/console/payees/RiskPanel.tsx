import { displayMoney } from '@dn/schema';
import { ConfirmModal, DataTable } from '@dn/ui';
import { Badge, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { useAdminRole } from '../shared/role';

type Status = 'open' | 'cleared' | 'voided';

/** The Risk section (issue 39): flagged referrals with their evidence; an owner clears or voids with a reason. */
export default function RiskPanel() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const [status, setStatus] = useState<Status>('open');
  const [deciding, setDeciding] = useState<{ id: string; action: 'clear' | 'void' } | null>(null);
  const [reason, setReason] = useState('');
  const flags = useQuery(trpc.risk.list.queryOptions({ status }));
  const done = {
    onSuccess: () => {
      notifications.show({ title: 'Decision recorded', message: 'The flag is decided.', color: 'green' });
      setDeciding(null);
      setReason('');
      void queryClient.invalidateQueries(trpc.risk.pathFilter());
      void queryClient.invalidateQueries(trpc.commissions.pathFilter());
    },
    onError: (e: { message: string }) =>
      notifications.show({ title: 'Could not decide', message: e.message, color: 'red' }),
  };
  const clear = useMutation(trpc.risk.clear.mutationOptions(done));
  const voidFlag = useMutation(trpc.risk.void.mutationOptions(done));
  return (
    <Stack>
      <SegmentedControl
        value={status}
        onChange={(v) => setStatus(v as Status)}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'cleared', label: 'Cleared' },
          { value: 'voided', label: 'Voided' },
        ]}
      />
      <DataTable
        rows={flags.data ?? []}
        rowKey={(f) => f.id}
        rowTestId="risk-row"
        cards
        query={flags}
        empty="No flagged referrals."
        columns={[
          { header: 'Flagged', cell: (f) => f.createdAt.slice(0, 10) },
          { header: 'Referred dealer', cell: (f) => `${f.referred.name} (${f.referred.email})` },
          { header: 'Recruiter', cell: (f) => `${f.recruiter.name} (${f.recruiter.email})` },
          {
            header: 'Evidence',
            cell: (f) => (
              <Stack gap={2}>
                <Group gap={4}>
                  {f.signals.map((s) => (
                    <Badge key={s} size="sm" variant="light">
                      {s.replace(/_/g, ' ')}
                    </Badge>
                  ))}
                </Group>
                <Text size="xs" c="dimmed">
                  {f.reason}
                </Text>
              </Stack>
            ),
          },
          { header: 'Held', cell: (f) => `${f.held.count} · ${displayMoney(f.held.amount)}` },
          {
            header: '',
            cell: (f) =>
              f.status === 'open' && can('owner') ? (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => setDeciding({ id: f.id, action: 'clear' })}>
                    Clear
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    onClick={() => setDeciding({ id: f.id, action: 'void' })}
                  >
                    Void
                  </Button>
                </Group>
              ) : (
                <Text size="xs">{f.decidedBy ? `${f.status} by ${f.decidedBy}` : f.status}</Text>
              ),
          },
        ]}
      />
      <ConfirmModal
        opened={deciding !== null}
        title={
          deciding?.action === 'void' ? 'Void: its commissions are never paid' : 'Clear: its commissions become payable'
        }
        onClose={() => setDeciding(null)}
        confirmLabel={deciding?.action === 'void' ? 'Void' : 'Clear'}
        disabled={!reason.trim()}
        loading={clear.isPending || voidFlag.isPending}
        onConfirm={() =>
          deciding && (deciding.action === 'clear' ? clear : voidFlag).mutate({ id: deciding.id, reason })
        }
      >
        <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
      </ConfirmModal>
    </Stack>
  );
}
