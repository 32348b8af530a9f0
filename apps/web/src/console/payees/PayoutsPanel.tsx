import { DATE_FORMAT, DEFAULT_PAYOUT_MINIMUM, displayMoney, MONEY_WORDS, PAYEE_PAID_WORDS } from '@dn/schema';
import { ConfirmModal, DataTable } from '@dn/ui';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { downloadFile } from '../shared/download';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';

// One batch's payees, each marked paid alone (decision 0965): loaded when asked for.
const PayoutPayees = lazy(() => import('./PayoutPayees'));

// A yellow alert's own title colour is too light to read (axe: color-contrast): the text colour instead.
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/** Payout batches: create one above a minimum, download its CSV, mark it paid with a reference. */
export function PayoutsPanel() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const [minimum, setMinimum] = useState(DEFAULT_PAYOUT_MINIMUM);
  const [paying, setPaying] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [viewing, setViewing] = useState<string | null>(null);
  const payouts = useQuery(trpc.commissions.payouts.queryOptions());
  const batch = payouts.data?.find((p) => p.id === paying);
  const create = useAdminMutation(ADMIN_MUTATIONS.createPayout);
  // Issue 39: who the newest batch left out (missing payout details, not in good standing) and why.
  const held = payouts.data?.[0]?.held ?? [];
  const markPaid = useAdminMutation(ADMIN_MUTATIONS.markPaid, {
    onSuccess: () => {
      setPaying(null);
      setReference('');
    },
  });
  // Issue 47, item 4: the bank file needs the payment settings; an owner is told before the download refuses.
  const settings = useQuery({ ...trpc.payees.settings.queryOptions(), enabled: can('owner') });
  const save = (url: string, fallback: string, what: string) =>
    downloadFile(url, fallback).then(
      (name) => notifications.show({ title: `${what} downloaded`, message: name, color: 'green' }),
      (e: Error) => notifications.show({ title: `${what} not downloaded`, message: e.message, color: 'red' }),
    );
  return (
    <Stack>
      {can('owner') && settings.isSuccess && !settings.data && (
        <Alert
          color="yellow"
          title="Payment settings are not set"
          styles={READABLE_TITLE}
          data-testid="payouts-needs-settings"
        >
          The bank file (NACHA) and the 1099-NEC report need the company, its originating bank and the payer.{' '}
          <Anchor href="#payment-settings">Set them below</Anchor>.
        </Alert>
      )}
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
      {held.length > 0 && (
        <Alert color="yellow" title="Held from the newest batch" styles={READABLE_TITLE} data-testid="payout-held">
          <Stack gap={2}>
            {held.map((x) => (
              <Text size="sm" key={x.recruiterId}>
                {x.recruiterName}: {displayMoney(x.amount)} ({x.reason})
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      <DataTable
        rows={payouts.data ?? []}
        rowKey={(p) => p.id}
        rowTestId="payout-row"
        cards
        query={payouts}
        empty="No payout batches yet."
        columns={[
          { header: 'Created', cell: (p) => dayjs(p.createdAt).format(DATE_FORMAT) },
          { header: 'Total', cell: (p) => displayMoney(p.total) },
          { header: 'Recruiters', cell: (p) => p.recruiterCount },
          { header: 'Entries', cell: (p) => p.commissionCount },
          { header: 'Held', cell: (p) => p.held.length },
          { header: 'Status', cell: (p) => (p.status === 'paid' ? `paid (${p.reference})` : 'created') },
          {
            header: '',
            cell: (p) => (
              // Wraps on a phone's card: each link whole on its line ("Downloa/d CSV" otherwise, issue 47).
              <Group gap="xs" style={{ whiteSpace: 'nowrap' }}>
                {can('owner') && (
                  <>
                    <Anchor href={`/api/admin/payouts/${p.id}/export`} download>
                      Download CSV
                    </Anchor>
                    {/* Fetched, so a refusal (no payment settings) is said in a toast, not saved as a file. */}
                    <Anchor
                      component="button"
                      type="button"
                      data-testid="download-ach"
                      onClick={() => save(`/api/admin/payouts/${p.id}/ach`, 'payout.ach.txt', 'Bank file (ACH)')}
                    >
                      Bank file (ACH)
                    </Anchor>
                    <Anchor
                      component="button"
                      type="button"
                      onClick={() => save(`/api/admin/payouts/${p.id}/checks`, 'checks.csv', 'Check register')}
                    >
                      Check register
                    </Anchor>
                  </>
                )}
                <Button size="xs" variant="default" onClick={() => setViewing(viewing === p.id ? null : p.id)}>
                  {viewing === p.id ? PAYEE_PAID_WORDS.hide : PAYEE_PAID_WORDS.show}
                </Button>
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
      {viewing && (
        <Suspense fallback={null}>
          <PayoutPayees payoutId={viewing} />
        </Suspense>
      )}
      <ConfirmModal
        opened={paying !== null}
        title="Mark payout paid"
        onClose={() => setPaying(null)}
        confirmLabel={MONEY_WORDS.markPaidConfirm(batch?.recruiterCount ?? 0)}
        disabled={!reference.trim()}
        loading={markPaid.isPending}
        onConfirm={() => paying && markPaid.mutate({ id: paying, reference })}
      >
        {batch && <Text size="sm">{MONEY_WORDS.markPaidBody(batch.recruiterCount, displayMoney(batch.total))}</Text>}
        <TextInput label="Payment reference" value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
      </ConfirmModal>
    </Stack>
  );
}
