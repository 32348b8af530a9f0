import { DATE_FORMAT, displayMoney, PAYOUTS_CONSOLE_WORDS as R, PAYEE_PAID_WORDS as W } from '@dn/schema';
import { ConfirmModal, DataTable } from '@dn/ui';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { useAdminRole } from '../shared/role';

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
  // Issue 47, item 4: a payment the bank returned (its return code) is approved again and the payee emailed.
  const [returning, setReturning] = useState<Payee | null>(null);
  const [returnCode, setReturnCode] = useState('');
  const [note, setNote] = useState('');
  const recordReturn = useMutation(
    trpc.payees.recordReturn.mutationOptions({
      onSuccess: () => {
        notifications.show({
          title: R.returnSaved(returning?.recruiterName ?? ''),
          message: R.returnSavedDetail,
          color: 'green',
        });
        setReturning(null);
        setReturnCode('');
        setNote('');
        void queryClient.invalidateQueries(trpc.commissions.pathFilter());
      },
      onError: (e) => notifications.show({ title: R.returnFailed, message: e.message, color: 'red' }),
    }),
  );
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
              can('owner') && (
                <Group gap="xs" wrap="nowrap">
                  {!p.paid && (
                    <Button size="xs" onClick={() => setPaying(p)}>
                      {W.button}
                    </Button>
                  )}
                  <Button size="xs" variant="default" onClick={() => setReturning(p)}>
                    {R.returnButton}
                  </Button>
                </Group>
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
      <ConfirmModal
        opened={returning !== null}
        title={R.returnTitle}
        onClose={() => setReturning(null)}
        confirmLabel={R.returnConfirm}
        disabled={!returnCode.trim()}
        loading={recordReturn.isPending}
        onConfirm={() =>
          returning &&
          recordReturn.mutate({
            id: payoutId,
            recruiterId: returning.recruiterId,
            returnCode,
            note: note.trim() || undefined,
          })
        }
      >
        {returning && <Text size="sm">{R.returnBody(returning.recruiterName, displayMoney(returning.amount))}</Text>}
        <TextInput
          label={R.returnCode}
          description={R.returnCodeHint}
          placeholder="R03"
          value={returnCode}
          onChange={(e) => setReturnCode(e.currentTarget.value)}
        />
        <TextInput label={R.returnNote} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      </ConfirmModal>
    </>
  );
}
