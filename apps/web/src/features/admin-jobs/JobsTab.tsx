import { displayMoney, JOB_STATUS_LABELS, JOB_STATUSES, type JobStatus } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Badge, Button, Group, NumberInput, Popover, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { type DealerChoice, DealerPicker } from '../admin/DealerPicker';
import { useAdminRole } from '../admin-team/role';

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
            cell: (j) => (
              <Badge color={j.status === 'unrouted' ? 'red' : 'gray'} variant="light">
                {JOB_STATUS_LABELS[j.status as JobStatus]}
              </Badge>
            ),
          },
          { header: 'Where', cell: (j) => `${j.city}, ${j.state} ${j.zipCode}` },
          { header: 'Scope', cell: (j) => `${j.atticSqFt ?? '?'} sq ft · ${j.fans ?? '?'} fans` },
          { header: 'Seller', cell: (j) => j.sellerCompany ?? (j.origin === 'quote' ? 'Homeowner request' : '') },
          { header: 'Installer', cell: (j) => j.installerCompany ?? '' },
          { header: 'Created', cell: (j) => dayjs(j.createdAt).format('MMM D, YYYY') },
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
              can('reviewer') &&
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
    </Stack>
  );
}
