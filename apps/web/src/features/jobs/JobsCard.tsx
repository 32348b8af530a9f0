import { JOB_AMOUNT_REVIEW_NOTE, JOB_STATUS_LABELS, POLL_MS } from '@dn/schema';
import { Badge, Button, Card, Collapse, Group, Menu, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import classes from './jobs.module.css';

const RegisterJobForm = lazy(() => import('./RegisterJobForm'));
const ServiceAreaForm = lazy(() => import('./ServiceAreaForm'));

const DECLINE_REASONS = ['Schedule is full', 'Too far', 'Not the work we do'];

function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

function left(expiresAt: string, now: number) {
  const min = Math.max(0, Math.round((Date.parse(expiresAt) - now) / 60_000));
  return min >= 60 ? `${Math.floor(min / 60)} h ${min % 60} min left` : `${min} min left`;
}

/**
 * The dashboard's Jobs card (issue 37): an installer's open offers (Accept, Decline in one tap) and
 * the jobs they sold or install; Register a job; the service area for Authorized and Preferred.
 */
export default function JobsCard({ installs }: { installs: boolean }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const now = useNow();
  const [open, setOpen] = useState<'register' | 'area' | null>(null);
  const offers = useQuery(
    trpc.jobs.offers.queryOptions(undefined, { enabled: installs, refetchInterval: POLL_MS.dealerInfo }),
  );
  const jobs = useQuery(trpc.jobs.mine.queryOptions(undefined, { refetchInterval: POLL_MS.dealerInfo }));
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.jobs.offers.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.jobs.mine.queryKey() });
  };
  const failed = (error: { message: string }) => {
    notifications.show({ title: 'Not done', message: error.message, color: 'red' });
    refresh();
  };
  const accept = useMutation(trpc.jobs.accept.mutationOptions({ onSuccess: refresh, onError: failed }));
  const decline = useMutation(trpc.jobs.decline.mutationOptions({ onSuccess: refresh, onError: failed }));
  const setStatus = useMutation(trpc.jobs.setStatus.mutationOptions({ onSuccess: refresh, onError: failed }));
  const [dates, setDates] = useState<Record<string, string>>({});
  const [amounts, setAmounts] = useState<Record<string, string>>({});

  return (
    <Card withBorder data-testid="jobs-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Jobs
          </Title>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => setOpen(open === 'register' ? null : 'register')}>
              Register a job
            </Button>
            {installs && (
              <Button size="xs" variant="subtle" onClick={() => setOpen(open === 'area' ? null : 'area')}>
                Service area
              </Button>
            )}
          </Group>
        </Group>
        <Collapse expanded={open !== null}>
          <Suspense fallback={null}>
            {open === 'register' && <RegisterJobForm installs={installs} onDone={() => setOpen(null)} />}
            {open === 'area' && <ServiceAreaForm />}
          </Suspense>
        </Collapse>

        {installs && (offers.data?.items.length ?? 0) > 0 && (
          <Stack gap="xs">
            <Text fw={600}>Offers</Text>
            {offers.data!.items.map((o) => (
              <div key={o.id} className={classes.offer} data-testid="job-offer">
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0}>
                    <Text fw={600}>
                      {o.city}, {o.state} {o.zipCode}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {o.distanceMiles.toFixed(1)} mi · {o.atticSqFt ? `${o.atticSqFt} sq ft` : 'attic size not given'}{' '}
                      · {o.fans ?? '?'} fans
                    </Text>
                    <Text size="sm" c="orange">
                      {left(o.expiresAt, now)}
                    </Text>
                  </Stack>
                  <Stack gap={4}>
                    <Button
                      size="sm"
                      color="green"
                      loading={accept.isPending}
                      onClick={() => accept.mutate({ id: o.id })}
                    >
                      Accept
                    </Button>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <Button size="sm" variant="default">
                          Decline
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {DECLINE_REASONS.map((reason) => (
                          <Menu.Item key={reason} onClick={() => decline.mutate({ id: o.id, reason })}>
                            {reason}
                          </Menu.Item>
                        ))}
                      </Menu.Dropdown>
                    </Menu>
                  </Stack>
                </Group>
              </div>
            ))}
          </Stack>
        )}

        {(jobs.data?.items.length ?? 0) === 0 ? (
          <Text size="sm" c="dimmed">
            No jobs yet.
          </Text>
        ) : (
          <Stack gap="xs">
            {jobs.data!.items.map((j) => (
              <div key={j.id} className={classes.offer} data-testid="job-row">
                <Group justify="space-between">
                  <Text fw={600}>
                    {j.city}, {j.state} {j.zipCode}
                  </Text>
                  <Badge variant="light">{JOB_STATUS_LABELS[j.status]}</Badge>
                </Group>
                {j.role === 'installer' && j.homeowner && (
                  <Text size="sm">
                    {j.homeowner.fullName} · {j.homeowner.phone} · {j.homeowner.email} · {j.homeowner.street}
                  </Text>
                )}
                {j.role === 'seller' && j.installer && (
                  <Text size="sm">
                    Installer: {j.installer.company}, {j.installer.phone}
                  </Text>
                )}
                {j.scheduledFor && <Text size="sm">Scheduled for {j.scheduledFor}</Text>}
                {j.amountReview === 'pending' && (
                  <Text size="sm" c="orange" data-testid="job-amount-review">
                    {JOB_AMOUNT_REVIEW_NOTE}
                  </Text>
                )}
                {j.role === 'installer' && (j.status === 'accepted' || j.status === 'scheduled') && (
                  <Stack gap={6} mt={6}>
                    <Group gap="xs" align="flex-end">
                      <TextInput
                        size="xs"
                        type="date"
                        label="Date"
                        value={dates[j.id] ?? ''}
                        onChange={(e) => setDates({ ...dates, [j.id]: e.currentTarget.value })}
                      />
                      <Button
                        size="xs"
                        disabled={!dates[j.id]}
                        onClick={() => setStatus.mutate({ id: j.id, status: 'scheduled', scheduledFor: dates[j.id]! })}
                      >
                        Schedule
                      </Button>
                    </Group>
                    <Group gap="xs" align="flex-end">
                      <TextInput
                        size="xs"
                        label="Final amount ($)"
                        inputMode="decimal"
                        value={amounts[j.id] ?? j.amount ?? ''}
                        onChange={(e) => setAmounts({ ...amounts, [j.id]: e.currentTarget.value })}
                      />
                      <Button
                        size="xs"
                        color="green"
                        onClick={() => {
                          const amount = (amounts[j.id] ?? j.amount ?? '').trim();
                          setStatus.mutate({ id: j.id, status: 'installed', ...(amount ? { amount } : {}) });
                        }}
                      >
                        Installed
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() =>
                          setStatus.mutate({ id: j.id, status: 'cancelled', reason: 'Cancelled by the installer' })
                        }
                      >
                        Cancel
                      </Button>
                    </Group>
                  </Stack>
                )}
              </div>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
