import {
  COVERAGE_WORDS,
  DATE_FORMAT,
  displayDateTime,
  displayMoney,
  JOB_STATUS_LABELS,
  JOB_STATUSES,
  type JobStatus,
  plural,
} from '@dn/schema';
import { DataTable } from '@dn/ui';
import {
  Anchor,
  Badge,
  Button,
  Drawer,
  Group,
  NumberInput,
  Popover,
  Select,
  Stack,
  Text,
  Timeline,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { type DealerChoice, DealerPicker } from '../shared/DealerPicker';
import { useAdminRole } from '../shared/role';

const CoverageMap = lazy(() => import('./CoverageMap'));

/** The console's Jobs section (issue 37): unrouted first, assign by hand; owners set the offer deadline. */
export function JobsTab({ status, onStatus }: { status?: JobStatus; onStatus: (s: JobStatus | undefined) => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const jobs = useQuery(trpc.jobs.adminJobs.queryOptions({ page: 1, ...(status ? { status } : {}) }));
  const done = (title: string) => () => {
    notifications.show({ title, message: '', color: 'green' });
    void queryClient.invalidateQueries({ queryKey: trpc.jobs.adminJobs.queryKey() });
  };
  const failed = (error: { message: string }) =>
    notifications.show({ title: 'Not done', message: error.message, color: 'red' });
  const assign = useMutation(trpc.jobs.assign.mutationOptions({ onSuccess: done('Job assigned'), onError: failed }));
  const routing = useMutation(
    trpc.jobs.setRouting.mutationOptions({ onSuccess: done('Offer deadline saved'), onError: failed }),
  );
  // Issue 45: an installed amount above the job's, and a job's held commission, are an owner's to decide.
  const amount = useMutation(
    trpc.jobs.decideAmount.mutationOptions({ onSuccess: done('Installed amount decided'), onError: failed }),
  );
  const release = useMutation(
    trpc.jobs.releaseCommission.mutationOptions({ onSuccess: done('Commission released'), onError: failed }),
  );
  const [hours, setHours] = useState<number | string>(24);
  const [picked, setPicked] = useState<DealerChoice | null>(null);
  const [showMap, setShowMap] = useState(false);
  // Issue 47, item 7: a job's place opens its timeline (offers, declines, expiries, assignments).
  const [timelineOf, setTimelineOf] = useState<{ id: string; place: string } | null>(null);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label="Status"
          placeholder="All"
          clearable
          w={220}
          data={JOB_STATUSES.map((s) => ({ value: s, label: JOB_STATUS_LABELS[s] }))}
          value={status ?? null}
          onChange={(v) => onStatus((v as JobStatus | null) ?? undefined)}
        />
        <Button variant="light" onClick={() => setShowMap(!showMap)}>
          {showMap ? 'Hide coverage map' : 'Coverage map'}
        </Button>
        {can('owner') && (
          <Group align="flex-end" gap="xs">
            <NumberInput label="Hours to answer an offer" min={1} max={168} w={200} value={hours} onChange={setHours} />
            <Button loading={routing.isPending} onClick={() => routing.mutate({ offerHours: Number(hours) })}>
              Save
            </Button>
          </Group>
        )}
      </Group>
      {showMap && (
        <Suspense fallback={null}>
          <CoverageMap />
        </Suspense>
      )}
      <DataTable
        rows={jobs.data?.items ?? []}
        rowKey={(j) => j.id}
        rowTestId="admin-job-row"
        minWidth={900}
        cards
        query={jobs}
        empty="No jobs yet."
        columns={[
          {
            header: 'Status',
            cell: (j) =>
              // An offered job waits on a named installer: say who (issue 47, item 7).
              j.status === 'offered' && j.offeredTo ? (
                <Text size="sm" data-testid="job-offered-to">
                  {COVERAGE_WORDS.offeredTo(j.offeredTo)}
                </Text>
              ) : (
                <Badge
                  color={j.status === 'unrouted' ? 'red' : 'gray'}
                  variant="light"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {JOB_STATUS_LABELS[j.status as JobStatus]}
                </Badge>
              ),
          },
          {
            header: 'Where',
            cell: (j) => {
              const place = `${j.city}, ${j.state} ${j.zipCode}`;
              return (
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  aria-label={COVERAGE_WORDS.timelineOf(place)}
                  onClick={() => setTimelineOf({ id: j.id, place })}
                >
                  {place}
                </Anchor>
              );
            },
          },
          {
            header: 'Scope',
            cell: (j) => `${j.atticSqFt ?? '?'} sq ft · ${j.fans === null ? '? fans' : plural(j.fans, 'fan')}`,
          },
          { header: 'Seller', cell: (j) => j.sellerCompany ?? (j.origin === 'quote' ? 'Homeowner request' : '') },
          { header: 'Installer', cell: (j) => j.installerCompany ?? '' },
          { header: 'Created', cell: (j) => dayjs(j.createdAt).format(DATE_FORMAT) },
          {
            header: 'Money',
            cell: (j) => (
              <Stack gap={4} align="flex-start" maw={260} data-testid="admin-job-money">
                {j.amountReview === 'pending' && j.requestedAmount ? (
                  <>
                    <Badge color="orange" variant="light">
                      Installed at {displayMoney(j.requestedAmount)}, registered{' '}
                      {j.amount ? displayMoney(j.amount) : 'without an amount'}
                    </Badge>
                    {can('owner') && (
                      <Group gap={4}>
                        <Button
                          size="compact-xs"
                          loading={amount.isPending}
                          onClick={() => amount.mutate({ id: j.id, decision: 'approve' })}
                        >
                          Approve {displayMoney(j.requestedAmount)}
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="light"
                          loading={amount.isPending}
                          onClick={() => amount.mutate({ id: j.id, decision: 'reject' })}
                        >
                          {j.amount ? `Keep ${displayMoney(j.amount)}` : 'Record no amount'}
                        </Button>
                      </Group>
                    )}
                  </>
                ) : (
                  j.installedAmount && <Text size="sm">{displayMoney(j.installedAmount)}</Text>
                )}
                {j.selfInstalled && (
                  <Badge color="red" variant="light">
                    Seller installed it
                  </Badge>
                )}
                {j.homeownerAnswer && (
                  <Text size="xs" c={j.homeownerAnswer === 'disputed' ? 'red' : 'dimmed'}>
                    Homeowner {j.homeownerAnswer === 'disputed' ? 'disputed it' : 'confirmed it'}
                  </Text>
                )}
                {j.commission?.status === 'held' && (
                  <>
                    <Text size="xs" c="dimmed">
                      Commission held:{' '}
                      {j.commission.releaseNeeds === 'installation'
                        ? "waiting for the homeowner's answer"
                        : j.commission.releaseNeeds === 'owner'
                          ? 'an owner decides in Risk'
                          : 'its referral is flagged in Risk'}
                    </Text>
                    {can('owner') && j.commission.releaseNeeds === 'installation' && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        loading={release.isPending}
                        onClick={() => release.mutate({ id: j.id })}
                      >
                        Release commission
                      </Button>
                    )}
                  </>
                )}
              </Stack>
            ),
          },
          {
            header: '',
            cell: (j) =>
              // Assign only where no installer has the job yet (issue 47, item 7).
              can('reviewer') &&
              !j.installerId &&
              j.status !== 'installed' &&
              j.status !== 'cancelled' && (
                <Popover withinPortal position="bottom-end" onClose={() => setPicked(null)}>
                  <Popover.Target>
                    <Button size="xs" variant="light">
                      Assign
                    </Button>
                  </Popover.Target>
                  <Popover.Dropdown>
                    <Stack gap="xs" w={280}>
                      <DealerPicker label="Installer" value={picked} onChange={setPicked} referrersOnly />
                      <Text size="xs" c="dimmed">
                        An approved or active Authorized or Preferred dealer.
                      </Text>
                      <Button
                        size="xs"
                        disabled={!picked}
                        loading={assign.isPending}
                        onClick={() => picked && assign.mutate({ id: j.id, dealerId: picked.value })}
                      >
                        Assign
                      </Button>
                    </Stack>
                  </Popover.Dropdown>
                </Popover>
              ),
          },
        ]}
      />
      <Drawer
        opened={timelineOf !== null}
        onClose={() => setTimelineOf(null)}
        closeButtonProps={{ 'aria-label': 'Close' }}
        position="right"
        title={timelineOf ? `${COVERAGE_WORDS.timelineTitle} · ${timelineOf.place}` : COVERAGE_WORDS.timelineTitle}
      >
        {timelineOf && <JobTimeline id={timelineOf.id} />}
      </Drawer>
    </Stack>
  );
}

function JobTimeline({ id }: { id: string }) {
  const trpc = useTrpc();
  const steps = useQuery(trpc.jobs.adminTimeline.queryOptions({ id }));
  if (!steps.data) return <Text size="sm">Loading…</Text>;
  if (steps.data.items.length === 0) return <Text size="sm">{COVERAGE_WORDS.noSteps}</Text>;
  return (
    <Timeline active={steps.data.items.length - 1} bulletSize={14} lineWidth={2} data-testid="job-timeline">
      {steps.data.items.map((e) => (
        <Timeline.Item key={`${e.createdAt}-${e.kind}-${e.message}`} title={e.message}>
          <Text size="xs">
            {displayDateTime(e.createdAt)}
            {e.actor ? ` · ${e.actor}` : ''}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
