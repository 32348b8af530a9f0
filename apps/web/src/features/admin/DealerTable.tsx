import { ACTIVE_STATUSES, DEALER_STATUSES, type DealerStatus, TIERS, type Tier } from '@dn/schema';
import { Badge, Button, Checkbox, Group, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { useAdminRole } from '../admin-team/role';
import classes from './admin.module.css';
import type { DealerItem } from './types';
import { useAdminFeedback } from './use-admin-mutation';
import { useDecisionFeedback } from './use-decision';

const RejectDialog = lazy(() => import('./RejectDialog'));
const LinkReferralDialog = lazy(() => import('./LinkReferralDialog'));
const TimelineDrawer = lazy(() => import('./TimelineDrawer'));
const RecordOrderDialog = lazy(() => import('../admin-commissions/RecordOrderDialog'));

type DialogKind = 'reject' | 'link' | 'timeline' | 'order';
type Dialog = { kind: DialogKind; dealer: DealerItem } | null;

/** Row selection for the bulk actions (issue 14). */
export interface RowSelection {
  isSelected: (id: string) => boolean;
  toggle: (id: string) => void;
  /** Checks or unchecks every row of the page. */
  togglePage: (checked: boolean) => void;
}

/** Below 768 px the rows are cards (admin.module.css): every action stays on screen. */
export function DealerTable({
  items,
  loading,
  selection,
}: {
  items: DealerItem[];
  loading: boolean;
  selection?: RowSelection;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const phone = useMediaQuery('(max-width: 767px)');
  const close = () => setDialog(null);
  if (loading) return <Skeleton h={240} />;
  const pageChecked = items.length > 0 && items.every((d) => selection?.isSelected(d.id));
  const pageSome = items.some((d) => selection?.isSelected(d.id));
  return (
    <>
      {phone && selection && (
        <Checkbox
          label="Select this page"
          checked={pageChecked}
          indeterminate={pageSome && !pageChecked}
          onChange={(e) => selection.togglePage(e.currentTarget.checked)}
        />
      )}
      <Table.ScrollContainer minWidth={phone ? 0 : 1100}>
        <Table striped highlightOnHover verticalSpacing="sm" className={classes.dealerTable}>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th>
                  <Checkbox
                    aria-label="Select this page"
                    checked={pageChecked}
                    indeterminate={pageSome && !pageChecked}
                    onChange={(e) => selection.togglePage(e.currentTarget.checked)}
                  />
                </Table.Th>
              )}
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
              <DealerRow key={d.id} dealer={d} open={(kind) => setDialog({ kind, dealer: d })} selection={selection} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Suspense fallback={null}>
        {dialog?.kind === 'reject' && <RejectDialog dealer={dialog.dealer} onClose={close} />}
        {dialog?.kind === 'link' && <LinkReferralDialog dealer={dialog.dealer} onClose={close} />}
        {dialog?.kind === 'timeline' && <TimelineDrawer dealer={dialog.dealer} onClose={close} />}
        {dialog?.kind === 'order' && <RecordOrderDialog dealer={dialog.dealer} onClose={close} />}
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

function DealerRow({
  dealer: d,
  open,
  selection,
}: {
  dealer: DealerItem;
  open: (k: DialogKind) => void;
  selection?: RowSelection | undefined;
}) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const feedback = useAdminFeedback();
  const decided = useDecisionFeedback();
  const approve = useMutation(
    trpc.admin.approve.mutationOptions(decided('Failed to approve dealer', 'Dealer approved')),
  );
  const setStatus = useMutation(
    trpc.admin.setStatus.mutationOptions(decided('Failed to update dealer status', 'Dealer status updated')),
  );
  const setTier = useMutation(
    trpc.admin.upgradeTier.mutationOptions(decided('Failed to update dealer tier', 'Dealer tier updated')),
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
      {selection && (
        <Table.Td>
          <Checkbox
            aria-label={`Select ${name}`}
            checked={selection.isSelected(d.id)}
            onChange={() => selection.toggle(d.id)}
          />
        </Table.Td>
      )}
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
          disabled={setTier.isPending || !can('reviewer')}
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
          disabled={setStatus.isPending || !can('reviewer')}
          onChange={(v) => v && v !== d.status && setStatus.mutate({ id: d.id, status: v as DealerStatus })}
          w={130}
        />
      </Table.Td>
      <Table.Td>
        <Referral d={d} />
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          {can('reviewer') && (
            <>
              {!canSignIn && (
                <Button
                  size="xs"
                  color="green"
                  loading={approve.isPending}
                  onClick={() => approve.mutate({ id: d.id })}
                >
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
                <Button
                  size="xs"
                  variant="default"
                  loading={reset.isPending}
                  onClick={() => reset.mutate({ id: d.id })}
                >
                  Reset Password
                </Button>
              )}
              <Button size="xs" variant="default" onClick={() => open('link')}>
                Link Referral
              </Button>
              <Button size="xs" variant="default" onClick={() => open('order')}>
                Record order
              </Button>
            </>
          )}
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
