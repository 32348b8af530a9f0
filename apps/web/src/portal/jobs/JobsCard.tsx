import { POLL_MS } from '@dn/schema';
import { Button, Card, Collapse, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { JobRow } from './JobRow';
import { OfferList } from './OfferList';

const RegisterJobForm = lazy(() => import('./RegisterJobForm'));
const ServiceAreaPanel = lazy(() => import('./ServiceAreaPanel'));

function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/**
 * The dashboard's Jobs card (issues 37, 47): an installer's open offers (the one an emailed link
 * opened, `focusOffer`, scrolled to and marked), the jobs they sold or install; Register a job; the
 * service area for Authorized and Preferred.
 */
export default function JobsCard({ installs, focusOffer }: { installs: boolean; focusOffer?: string | undefined }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const now = useNow();
  const [open, setOpen] = useState<'register' | 'area' | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const cardRef = useRef<HTMLDivElement | null>(null);
  const offers = useQuery(
    trpc.jobs.offers.queryOptions(undefined, { enabled: installs, refetchInterval: POLL_MS.dealerInfo }),
  );
  const jobs = useQuery(trpc.jobs.mine.queryOptions(undefined, { refetchInterval: POLL_MS.dealerInfo }));
  // Issue 50: an area routing paused after offers expired in a row opens at once, with its Resume.
  const area = useQuery(trpc.jobs.serviceArea.queryOptions(undefined, { enabled: installs }));
  const pausedByExpiries = area.data?.area?.paused === true && area.data.area.pausedReason === 'expired_offers';
  useEffect(() => {
    if (pausedByExpiries) setOpen('area');
  }, [pausedByExpiries]);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.jobs.offers.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.jobs.mine.queryKey() });
  };

  return (
    <Card withBorder data-testid="jobs-card" ref={cardRef}>
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
            {open === 'register' && (
              <RegisterJobForm
                installs={installs}
                onDone={(id) => {
                  setOpen(null);
                  setHighlight(id);
                  // The form folds away: keep the card, not what was below it, in view (issue 47).
                  cardRef.current?.scrollIntoView({ block: 'start' });
                }}
              />
            )}
            {open === 'area' && <ServiceAreaPanel />}
          </Suspense>
        </Collapse>

        {installs && (
          <OfferList
            offers={offers.data?.items ?? []}
            now={now}
            focus={focusOffer}
            loaded={offers.isSuccess}
            onChanged={refresh}
            onAccepted={setHighlight}
          />
        )}

        {jobs.isPending ? (
          <Skeleton h={60} />
        ) : (jobs.data?.items.length ?? 0) === 0 ? (
          // Open offers above are jobs to answer: "no jobs" only when there are none of either (issue 47).
          (offers.data?.items.length ?? 0) === 0 && (
            <Text size="sm" c="dimmed">
              No jobs yet.
            </Text>
          )
        ) : (
          <Stack gap="xs">
            {jobs.data!.items.map((j) => (
              <JobRow key={j.id} job={j} highlight={j.id === highlight} onChanged={refresh} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
