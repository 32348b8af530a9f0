import { ACTIVE_STATUSES, DEALER_STATUSES, type DealerStatus, TIERS, type Tier } from '@dn/schema';
import { type DataColumn, DataTable } from '@dn/ui';
import { Badge, Button, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { lazy, memo, Suspense, useCallback, useMemo, useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';
import classes from './admin.module.css';
import { OnboardingCell } from './OnboardingCell';
import type { DealerItem, DecisionDealer } from './types';

const RejectDialog = lazy(() => import('./RejectDialog'));
const LinkReferralDialog = lazy(() => import('./LinkReferralDialog'));
const TimelineDrawer = lazy(() => import('./TimelineDrawer'));
const RecordOrderDialog = lazy(() => import('../commissions').then((m) => ({ default: m.RecordOrderDialog })));

/** A green dark enough for the white 12 px label of Approve (5.6:1; the theme's green.8 gives 3.4:1, axe). */
const APPROVE_GREEN = '#24773a';

export type DialogKind = 'reject' | 'link' | 'timeline' | 'order';
type Dialog = { kind: DialogKind; dealer: DecisionDealer } | null;

/** Row selection for the bulk actions (issue 14). */
export interface RowSelection {
  isSelected: (id: string) => boolean;
  toggle: (id: string) => void;
  /** Checks or unchecks every row of the page. */
  togglePage: (checked: boolean) => void;
}

/** The dealer list: below 768 px the rows are cards (DataTable's `cards`), so every action stays on screen. */
/** The dealer's name, to their detail view (issue 36: every answer of the application), and company. */
export function DealerNameCell({ d }: { d: { id: string; fullName: string; companyName: string | null } }) {
  return (
    <>
      <Link to="/admin/dealers/$id" params={{ id: d.id }} className={classes.dealerName}>
        {d.fullName}
      </Link>
      {d.companyName && (
        <Text size="sm" c="dimmed">
          {d.companyName}
        </Text>
      )}
    </>
  );
}

export function DealerTable({
  items,
  query,
  empty,
  selection,
}: {
  items: DealerItem[];
  /** The list's query: its first load and failure (DataTable's states). */
  query: { isLoading: boolean; error: { message: string } | null };
  empty: string;
  selection?: RowSelection | undefined;
}) {
  const { dialog, open, dialogs } = useDealerDialogs();
  const phone = useMediaQuery('(max-width: 767px)');
  const pageChecked = items.length > 0 && items.every((d) => selection?.isSelected(d.id));
  const pageSome = items.some((d) => selection?.isSelected(d.id));
  const pageBox = selection && (
    <Checkbox
      aria-label="Select this page"
      label={phone ? 'Select this page' : undefined}
      checked={pageChecked}
      indeterminate={pageSome && !pageChecked}
      onChange={(e) => selection.togglePage(e.currentTarget.checked)}
    />
  );
  // One array while the list is unchanged (its query keeps the list's object): the memoised cells see the same ids.
  const pageIds = useMemo(() => items.map((d) => d.id), [items]);
  const columns: DataColumn<DealerItem>[] = [
    ...(selection
      ? [
          {
            header: pageBox,
            cell: (d: DealerItem) => (
              <Checkbox
                aria-label={`Select ${d.fullName}`}
                checked={selection.isSelected(d.id)}
                onChange={() => selection.toggle(d.id)}
              />
            ),
          },
        ]
      : []),
    {
      header: 'Business',
      cell: (d) => <DealerNameCell d={d} />,
    },
    {
      header: 'Contact',
      cell: (d) => (
        <>
          <Text size="sm">{d.email}</Text>
          <Text size="sm" c="dimmed">
            {d.phoneE164}
          </Text>
        </>
      ),
    },
    // The cells below draw again only when their dealer changes (the list's query keeps an unchanged
    // dealer's object): a selection, a count or another row's change leaves them be (decision 1360).
    { header: 'Tier', cell: (d) => <RowDecision dealer={d} field="tier" /> },
    { header: 'Status', cell: (d) => <RowDecision dealer={d} field="status" /> },
    { header: 'Referral', cell: (d) => <Referral d={d} /> },
    { header: 'Onboarding', cell: (d) => <RowOnboarding id={d.id} pageIds={pageIds} /> },
    { header: 'Actions', cell: (d) => <RowActions dealer={d} open={open} /> },
  ];
  return (
    <>
      {/* On a phone the header row is hidden: the page's checkbox stands above the cards. */}
      {phone && items.length > 0 && pageBox}
      <DataTable
        rows={items}
        columns={columns}
        rowKey={(d) => d.id}
        rowTestId="dealer-row"
        minWidth={1100}
        className={classes.dealerTable}
        cards
        query={query}
        empty={empty}
        verticalSpacing="sm"
      />
      {dialog && dialogs}
    </>
  );
}

/** The dialogs of a dealer's actions (reject, link referral, history, record order), one open at a time. */
export function useDealerDialogs() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const open = useCallback((kind: DialogKind, dealer: DecisionDealer) => setDialog({ kind, dealer }), []);
  const dialogs = (
    <Suspense fallback={null}>
      {dialog?.kind === 'reject' && <RejectDialog dealer={dialog.dealer} onClose={close} />}
      {dialog?.kind === 'link' && <LinkReferralDialog dealer={dialog.dealer} onClose={close} />}
      {dialog?.kind === 'timeline' && <TimelineDrawer dealer={dialog.dealer} onClose={close} />}
      {dialog?.kind === 'order' && <RecordOrderDialog dealer={dialog.dealer} onClose={close} />}
    </Suspense>
  );
  return { dialog, open, dialogs };
}

const linkWords = (d: DealerItem) =>
  d.recruiterId === d.ownRecruiterId
    ? `${d.fullName} recruits with the affiliate link ${d.recruiterId}`
    : `The application came through the affiliate link ${d.recruiterId}`;

/**
 * Who referred the dealer, by name (issue 36); the dealer's own affiliate link (its recruiter id)
 * is a note below, so "rita-attic" never reads as the referrer.
 */
const Referral = memo(function Referral({ d }: { d: DealerItem }) {
  return (
    <Stack gap={4}>
      {d.referredBy ? (
        <Text size="sm">Referred by {d.referredByName ?? 'Unknown Dealer'}</Text>
      ) : (
        <Text size="sm" c="dimmed">
          No referral
        </Text>
      )}
      {d.recruiterId && (
        // The dealer's own link, or (in older records) the link the application came through.
        <Badge variant="light" color="grape" className={classes.badgeText} title={linkWords(d)}>
          {d.recruiterId === d.ownRecruiterId ? 'Recruits as' : 'Through link'} {d.recruiterId}
        </Badge>
      )}
    </Stack>
  );
});

/** The row's tier or status: a change is a decision (its notice has Undo); a viewer sees it disabled. */
export function DecisionSelect({ dealer: d, field }: { dealer: DecisionDealer; field: 'tier' | 'status' }) {
  const { can } = useAdminRole();
  const setTier = useAdminMutation(ADMIN_MUTATIONS.setTier);
  const setStatus = useAdminMutation(ADMIN_MUTATIONS.setStatus);
  const pending = field === 'tier' ? setTier.isPending : setStatus.isPending;
  const change = (v: string) =>
    field === 'tier'
      ? setTier.mutate({ id: d.id, tier: v as Tier })
      : setStatus.mutate({ id: d.id, status: v as DealerStatus });
  return (
    <Select
      aria-label={`${field === 'tier' ? 'Tier' : 'Status'} of ${d.fullName}`}
      data={field === 'tier' ? [...TIERS] : [...DEALER_STATUSES]}
      value={d[field]}
      allowDeselect={false}
      disabled={pending || !can('reviewer')}
      onChange={(v) => v && v !== d[field] && change(v)}
      w={130}
    />
  );
}

const RowDecision = memo(DecisionSelect);
const RowOnboarding = memo(OnboardingCell);
const RowActions = memo(function RowActions({
  dealer,
  open,
}: {
  dealer: DecisionDealer;
  open: (kind: DialogKind, dealer: DecisionDealer) => void;
}) {
  return <DealerActions dealer={dealer} open={(kind) => open(kind, dealer)} />;
});

/** A dealer's decisions and actions, the same rules in the table and on the detail view (issue 36). */
export function DealerActions({
  dealer: d,
  open,
  history = true,
}: {
  dealer: DecisionDealer;
  open: (k: DialogKind) => void;
  /** The History drawer's button (the detail view shows the timeline itself). */
  history?: boolean;
}) {
  const { can } = useAdminRole();
  const approve = useAdminMutation(ADMIN_MUTATIONS.approve);
  const grant = useAdminMutation(ADMIN_MUTATIONS.grantAccess);
  const reset = useAdminMutation(ADMIN_MUTATIONS.resetPassword);
  const sendApproval = useAdminMutation(ADMIN_MUTATIONS.sendApprovalEmail);
  const canSignIn = ACTIVE_STATUSES.includes(d.status);
  return (
    <>
      <Group gap={6}>
        {can('reviewer') && (
          <>
            {!canSignIn && (
              <Button
                size="xs"
                color={APPROVE_GREEN}
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
              <Button size="xs" variant="default" loading={reset.isPending} onClick={() => reset.mutate({ id: d.id })}>
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
        {history && (
          <Button size="xs" variant="subtle" onClick={() => open('timeline')}>
            History
          </Button>
        )}
      </Group>
      {d.rejectionReason && (
        <Text size="xs" c="red" mt={4} className={classes.reason}>
          Rejection reason: {d.rejectionReason}
        </Text>
      )}
    </>
  );
}
