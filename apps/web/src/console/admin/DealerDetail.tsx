import type { AppRouter } from '@dn/api';
import { DATE_FORMAT, dealerId, displayMoney, INSTALLER_TIERS, WIZARD_STEPS } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Alert, Anchor, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import dayjs from 'dayjs';
import { lazy, type ReactNode, Suspense } from 'react';
import { CommissionStatusBadge } from '../../shared/components/CommissionStatusBadge';
import { useTrpc } from '../../shared/lib/trpc';
import { DealerOrders } from '../commissions';
import { useAdminRole } from '../shared/role';
import classes from './admin.module.css';
import { DealerActions, DecisionSelect, useDealerDialogs } from './DealerTable';
import { StatusLinkControl } from './StatusLinkControl';
import { DealerTimeline } from './TimelineDrawer';

export type DealerApplication = inferRouterOutputs<AppRouter>['admin']['dealer'];

/** The onboarding checklist of an approved dealer (issue 38), in its own chunk. */
const AdminOnboardingPanel = lazy(() => import('./AdminOnboardingPanel'));
/** An installer's scorecard (issue 50), in its own chunk. */
const ScorecardPanel = lazy(() => import('./ScorecardPanel'));

/** A link an applicant typed: opened in a new tab without the console's window or address, and only http(s). */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const NOT_ANSWERED = (
  <Text span size="sm" c="dimmed">
    Not answered
  </Text>
);
const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const count = (n: number | null, unit = '') => (n === null ? NOT_ANSWERED : `${n.toLocaleString('en-US')}${unit}`);

function ExternalLink({ url }: { url: string | null }) {
  if (!url) return NOT_ANSWERED;
  const href = safeHref(url);
  if (!href) {
    return (
      <Text span size="sm">
        {url}{' '}
        <Text span size="xs" c="red">
          (not a web link: not opened)
        </Text>
      </Text>
    );
  }
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
      {url}
    </Anchor>
  );
}

/** One step of the wizard, titled as the applicant saw it, with its answers as a description list. */
function StepAnswers({ step, note, children }: { step: number; note?: string; children: ReactNode }) {
  const title = WIZARD_STEPS[step]!.title;
  return (
    <Paper withBorder p="md" component="section" aria-label={title} data-testid={`answers-step-${step + 1}`}>
      <Title order={3} size="h5" mb="xs">
        {step + 1}. {title}
      </Title>
      {note && (
        <Text size="xs" c="dimmed" mb="xs">
          {note}
        </Text>
      )}
      <dl className={classes.answers}>{children}</dl>
    </Paper>
  );
}

function Answer({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div data-testid="answer">
      <dt>{label}</dt>
      <dd>{children ?? NOT_ANSWERED}</dd>
    </div>
  );
}

function Referral({ d }: { d: DealerApplication }) {
  if (!d.referredBy) return <>No referral</>;
  return (
    <>
      <Link to="/admin/dealers/$id" params={{ id: d.referredBy }}>
        {d.referredByName ?? 'Unknown Dealer'}
      </Link>
      {d.referredByCompany ? ` (${d.referredByCompany})` : ''}
      <Text span size="xs" c="dimmed">
        {' · '}
        {d.referralType === 'automatic'
          ? `through the affiliate link${d.referrerLinkId ? ` ${d.referrerLinkId}` : ''}`
          : 'linked by hand'}
      </Text>
    </>
  );
}

/** Every answer of the application, grouped by the wizard's steps (SPEC section 3; issue 36). */
export function ApplicationAnswers({ d }: { d: DealerApplication }) {
  const installer = INSTALLER_TIERS.includes(d.tier);
  const address = d.addressJson;
  return (
    <Stack gap="sm">
      <StepAnswers step={0}>
        <Answer label="Tier">{d.tier}</Answer>
      </StepAnswers>
      <StepAnswers step={1}>
        <Answer label="Full name">{d.fullName}</Answer>
        <Answer label="Company name">{d.companyName}</Answer>
        <Answer label="Email">{d.email}</Answer>
        <Answer label="Phone">{d.phoneE164}</Answer>
        <Answer label="Street address">{address?.street}</Answer>
        <Answer label="City">{address?.city}</Answer>
        <Answer label="State">{address?.state}</Answer>
        <Answer label="ZIP code">{address?.zipCode}</Answer>
        <Answer label="Country">{address?.country}</Answer>
        <Answer label="Referred by">
          <Referral d={d} />
        </Answer>
      </StepAnswers>
      <StepAnswers step={2} note={installer ? undefined : 'Not asked of Affiliates (they do not install).'}>
        <Answer label="Business entity type">{d.entityType}</Answer>
        <Answer label="Licensed installers">{yesNo(d.licensedInstallers)}</Answer>
        <Answer label="Installation crews">{count(d.crewCount)}</Answer>
        <Answer label="Insurance certificate">
          <ExternalLink url={d.insuranceCertUrl} />
        </Answer>
        <Answer label="Maintains inventory">{yesNo(d.maintainInventory)}</Answer>
      </StepAnswers>
      <StepAnswers step={3}>
        <Answer label="Sales representatives">{count(d.salesReps)}</Answer>
        <Answer label="Monthly volume">{count(d.monthlyVolume, ' sq ft per month')}</Answer>
        <Answer label="CRM">{d.crmName}</Answer>
      </StepAnswers>
      <StepAnswers step={4} note={d.tier === 'Preferred' ? undefined : 'Capabilities are asked of Preferred dealers.'}>
        <Answer label="Handles permitting">{yesNo(d.permittingCapable)}</Answer>
        <Answer label="Home performance services">{yesNo(d.homePerformance)}</Answer>
        <Answer label="Product focus">
          {d.productVerticals.length > 0 ? (
            <ul className={classes.focusList}>
              {d.productVerticals.map((v) => (
                <li key={v}>{v}</li>
              ))}
            </ul>
          ) : (
            NOT_ANSWERED
          )}
        </Answer>
      </StepAnswers>
      <StepAnswers step={5}>
        <Answer label="Agrees to the onboarding call">{yesNo(d.onboardingCallOk)}</Answer>
        <Answer label="Signed dealer agreement">
          <ExternalLink url={d.dealerAgreementUrl} />
        </Answer>
        <Answer label="Company logo">
          <ExternalLink url={d.logoUrl} />
        </Answer>
      </StepAnswers>
    </Stack>
  );
}

/** The commissions the dealer earned as a recruiter (the ledger's first page, filtered to them). */
function RecruiterCommissions({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const list = useQuery(trpc.commissions.list.queryOptions({ recruiterDealerId: dealerId, page: 1, pageSize: 20 }));
  return (
    <Paper withBorder p="sm" data-testid="dealer-commissions">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h4">
            Commissions earned as a recruiter
          </Title>
          <Link to="/admin/commissions" search={{ recruiter: dealerId }}>
            Open in the ledger
          </Link>
        </Group>
        <DataTable
          rows={list.data?.items ?? []}
          rowKey={(c) => c.id}
          striped={false}
          cards
          query={list}
          empty="No commissions."
          columns={[
            { header: 'Created', cell: (c) => dayjs(c.createdAt).format(DATE_FORMAT) },
            { header: 'Referred dealer', cell: (c) => c.referredName },
            { header: 'Order', cell: (c) => c.orderId ?? '' },
            { header: 'Amount', cell: (c) => displayMoney(c.amount) },
            { header: 'Status', cell: (c) => <CommissionStatusBadge status={c.status} /> },
          ]}
        />
      </Stack>
    </Paper>
  );
}

/** A dealer's detail view (issue 36): decisions, every answer, orders, commissions and the timeline. */
export function DealerDetail({ id }: { id: string }) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const dealer = useQuery(trpc.admin.dealer.queryOptions({ id }));
  const { open, dialogs } = useDealerDialogs();
  if (dealer.isLoading) return <Skeleton h={400} />;
  if (!dealer.data) {
    return (
      <Alert color="red" title="This dealer could not be shown">
        {dealer.error?.message ?? 'Not found'}
      </Alert>
    );
  }
  const d = dealer.data;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2} size="h3" data-testid="dealer-detail-name">
            {d.fullName}
          </Title>
          <Text size="sm" c="dimmed">
            {d.companyName ? `${d.companyName} · ` : ''}Applied {dayjs(d.createdAt).format(DATE_FORMAT)}
            {d.approvalDate ? ` · approved ${dayjs(d.approvalDate).format(DATE_FORMAT)}` : ''}
          </Text>
        </Stack>
        <Group gap="xs">
          <Badge variant="light">{d.tier}</Badge>
          <Badge variant="light" color="gray">
            {d.status}
          </Badge>
        </Group>
      </Group>
      <Paper withBorder p="md" component="section" aria-label="Decision">
        <Stack gap="sm">
          <Group align="flex-end">
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                Tier
              </Text>
              <DecisionSelect dealer={d} field="tier" />
            </Stack>
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                Status
              </Text>
              <DecisionSelect dealer={d} field="status" />
            </Stack>
          </Group>
          <DealerActions dealer={d} open={(kind) => open(kind, d)} history={false} />
          {!can('reviewer') && (
            <Text size="xs" c="dimmed">
              Viewers read applications; reviewers and owners decide them.
            </Text>
          )}
          {d.ownRecruiterId && (
            <Text size="sm">
              Recruits with the affiliate link <b>{d.ownRecruiterId}</b>
            </Text>
          )}
        </Stack>
      </Paper>
      {d.approvalDate && (
        <Suspense fallback={<Skeleton h={160} />}>
          <AdminOnboardingPanel dealerId={d.id} />
        </Suspense>
      )}
      {INSTALLER_TIERS.includes(d.tier) && (
        <Suspense fallback={<Skeleton h={160} />}>
          <ScorecardPanel dealerId={d.id} />
        </Suspense>
      )}
      <Title order={3} size="h4">
        Application
      </Title>
      <ApplicationAnswers d={d} />
      <DealerOrders dealerId={d.id} />
      <RecruiterCommissions dealerId={d.id} />
      <Paper withBorder p="md" component="section" aria-label="Timeline">
        <Title order={3} size="h4" mb="sm">
          Timeline
        </Title>
        <StatusLinkControl dealerId={d.id} />
        <DealerTimeline dealerId={d.id} />
        <Text mt="md" size="sm">
          <Link to="/admin/activity" search={{ dealer: d.id }}>
            All activity of this dealer
          </Link>
        </Text>
      </Paper>
      {dialogs}
    </Stack>
  );
}

/** The route's page (routes/admin/_console/dealers.$id.tsx): a hand-edited id that is not one gets the schema's word. */
export default function DealerPage({ id }: { id: string }) {
  const valid = dealerId.safeParse({ id });
  return (
    <Stack>
      <Anchor component={Link} to="/admin" size="sm">
        ← All dealers
      </Anchor>
      {valid.success ? (
        <DealerDetail id={id} />
      ) : (
        <Alert color="red" title="This dealer could not be shown">
          {valid.error.issues[0]?.message}
        </Alert>
      )}
    </Stack>
  );
}
