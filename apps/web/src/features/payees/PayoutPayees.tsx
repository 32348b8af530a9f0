import { DATE_FORMAT, displayMoney, PAYEE_PAID_WORDS as W } from '@dn/schema';
import { ConfirmModal, DataTable } from '@dn/ui';
import { Button, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { useAdminRole } from '../admin-team/role';

type Payee = { recruiterId: string; recruiterName: string; amount: string; paid: boolean; paidAt: string | null };

/**
 * The payees of one payout batch (issue 39, decision 0965): an owner marks one paid as of today,
 * after confirming (it emails them). Loaded lazily from the Payouts panel.
 */
export default function PayoutPayees({ payoutId }: { payoutId: string }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const [paying, setPaying] = useState<Payee | null>(null);
  const [reference, setReference] = useState('');
  const payees = useQuery(trpc.commissions.payoutPayees.queryOptions({ id: payoutId }));
  const markPaid = useMutation(
    trpc.commissions.markPayeePaid.mutationOptions({
      onSuccess: () => {
        notifications.show({ title: 'Payee marked paid', message: 'They are emailed.', color: 'green' });
        setPaying(null);
        setReference('');
        void queryClient.invalidateQueries(trpc.commissions.pathFilter());
      },
      onError: (e) => notifications.show({ title: 'Could not mark paid', message: e.message, color: 'red' }),
    }),
  );
  return (
    <>
      <DataTable
        rows={payees.data ?? []}
        rowKey={(p) => p.recruiterId}
        rowTestId="payout-payee-row"
        cards
        query={payees}
        empty="No payees in this batch."
        columns={[
          { header: 'Payee', cell: (p) => p.recruiterName },
          { header: 'Amount', cell: (p) => displayMoney(p.amount) },
          {
            header: 'Status',
            cell: (p) => (p.paid && p.paidAt ? W.paid(dayjs(p.paidAt).format(DATE_FORMAT)) : W.unpaid),
          },
          {
            header: '',
            cell: (p) =>
              !p.paid &&
              can('owner') && (
                <Button size="xs" onClick={() => setPaying(p)}>
                  {W.button}
                </Button>
              ),
          },
        ]}
      />
      <ConfirmModal
        opened={paying !== null}
        title={W.title}
        onClose={() => setPaying(null)}
        confirmLabel={W.confirm(paying?.recruiterName ?? '')}
        loading={markPaid.isPending}
        onConfirm={() =>
          paying &&
          markPaid.mutate({ id: payoutId, recruiterId: paying.recruiterId, reference: reference.trim() || undefined })
        }
      >
        {paying && <Text size="sm">{W.body(paying.recruiterName, displayMoney(paying.amount))}</Text>}
        <TextInput label={W.reference} value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
      </ConfirmModal>
    </>
  );
}
