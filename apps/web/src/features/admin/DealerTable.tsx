import { ACTIVE_STATUSES, DEALER_STATUSES, type DealerStatus, TIERS, type Tier } from '@dn/schema';
import { Badge, Button, Group, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { trpc } from '../../lib/trpc';
import classes from './admin.module.css';
import type { DealerItem } from './types';
import { useAdminFeedback } from './use-admin-mutation';

const RejectDialog = lazy(() => import('./RejectDialog'));
const LinkReferralDialog = lazy(() => import('./LinkReferralDialog'));
const TimelineDrawer = lazy(() => import('./TimelineDrawer'));

type Dialog = { kind: 'reject' | 'link' | 'timeline'; dealer: DealerItem } | null;

export function DealerTable({ items, loading }: { items: DealerItem[]; loading: boolean }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  if (loading) return <Skeleton h={240} />;
  return (
    <>
      <Table.ScrollContainer minWidth={1100}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Business</Table.Th>
              <Table.Th>Contact</Table.Th>
              <Table.Th>Tier</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Referral</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <DealerRow key={d.id} dealer={d} open={(kind) => setDialog({ kind, dealer: d })} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Suspense fallback={null}>
        {dialog?.kind === 'reject' && <RejectDialog dealer={dialog.dealer} onClose={close} />}
        {dialog?.kind === 'link' && <LinkReferralDialog dealer={dialog.dealer} onClose={close} />}
        {dialog?.kind === 'timeline' && <TimelineDrawer dealer={dialog.dealer} onClose={close} />}
      </Suspense>
    </>
  );
}

function Referral({ d }: { d: DealerItem }) {
  return (
    <Stack gap={4}>
      {d.recruiterId && (
        <Badge variant="light" color="grape" className={classes.badgeText}>
          Link: {d.recruiterId}
        </Badge>
      )}
      {d.referredBy ? (
        <Text size="sm">Referred by {d.referredByName ?? 'Unknown Dealer'}</Text>
      ) : (
        !d.recruiterId && (
          <Text size="sm" c="dimmed">
            No referral
          </Text>
        )
      )}
    </Stack>
  );
}

function DealerRow({ dealer: d, open }: { dealer: DealerItem; open: (k: 'reject' | 'link' | 'timeline') => void }) {
  const feedback = useAdminFeedback();
  const approve = useMutation(
    trpc.admin.approve.mutationOptions(feedback('Failed to approve dealer', 'Dealer approved')),
  );
  const setStatus = useMutation(
    trpc.admin.setStatus.mutationOptions(feedback('Failed to update dealer status', 'Dealer status updated')),
  );
  const setTier = useMutation(
    trpc.admin.upgradeTier.mutationOptions(feedback('Failed to update dealer tier', 'Dealer tier updated')),
  );
  const grant = useMutation(
    trpc.admin.grantAccess.mutationOptions(feedback('Failed to grant access', 'Access granted')),
  );
  const reset = useMutation(
    trpc.admin.resetPassword.mutationOptions(feedback('Failed to send password reset', 'Password reset email sent')),
  );
  const sendApproval = useMutation(
    trpc.admin.sendApprovalEmail.mutationOptions(feedback('Failed to send approval email', 'Approval email sent')),
  );
  const canSignIn = ACTIVE_STATUSES.includes(d.status);
  const name = d.fullName;

  return (
    <Table.Tr data-testid="dealer-row">
      <Table.Td>
        <Text fw={500}>{d.fullName}</Text>
        {d.companyName && (
          <Text size="sm" c="dimmed">
            {d.companyName}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{d.email}</Text>
        <Text size="sm" c="dimmed">
          {d.phoneE164}
        </Text>
      </Table.Td>
      <Table.Td>
        <Select
          aria-label={`Tier of ${name}`}
          data={[...TIERS]}
          value={d.tier}
          allowDeselect={false}
          disabled={setTier.isPending}
          onChange={(v) => v && v !== d.tier && setTier.mutate({ id: d.id, tier: v as Tier })}
          w={130}
        />
      </Table.Td>
      <Table.Td>
        <Select
          aria-label={`Status of ${name}`}
          data={[...DEALER_STATUSES]}
          value={d.status}
          allowDeselect={false}
          disabled={setStatus.isPending}
          onChange={(v) => v && v !== d.status && setStatus.mutate({ id: d.id, status: v as DealerStatus })}
          w={130}
        />
      </Table.Td>
      <Table.Td>
        <Referral d={d} />
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          {!canSignIn && (
            <Button size="xs" color="green" loading={approve.isPending} onClick={() => approve.mutate({ id: d.id })}>
              Approve
            </Button>
          )}
          {d.status !== 'rejected' && (
            <Button size="xs" color="red" variant="light" onClick={() => open('reject')}>
              Reject
            </Button>
          )}
          {d.status === 'pending' && !d.accessGranted && (
            <Button size="xs" variant="light" loading={grant.isPending} onClick={() => grant.mutate({ id: d.id })}>
              Grant Access
            </Button>
          )}
          {canSignIn && (
            <Button
              size="xs"
              variant="light"
              loading={sendApproval.isPending}
              onClick={() => sendApproval.mutate({ id: d.id })}
            >
              Send Approval Email
            </Button>
          )}
          {(d.accessGranted || canSignIn) && (
            <Button size="xs" variant="default" loading={reset.isPending} onClick={() => reset.mutate({ id: d.id })}>
              Reset Password
            </Button>
          )}
          <Button size="xs" variant="default" onClick={() => open('link')}>
            Link Referral
          </Button>
          <Button size="xs" variant="subtle" onClick={() => open('timeline')}>
            History
          </Button>
        </Group>
        {d.rejectionReason && (
          <Text size="xs" c="red" mt={4} className={classes.reason}>
            Rejection reason: {d.rejectionReason}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
