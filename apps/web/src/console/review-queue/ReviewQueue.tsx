import type { AppRouter } from '@dn/api';
import { DATE_FORMAT, plural, zoneLabel } from '@dn/schema';
import { type DataColumn, DataTable } from '@dn/ui';
import { Badge, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';

type Queue = inferRouterOutputs<AppRouter>['review']['queue'];
type Item = Queue['items'][number];

const day = (d: string) => dayjs(d).format(DATE_FORMAT);

function AgeBadge({ item, limit }: { item: Item; limit: number }) {
  if (item.overdue) {
    return (
      <Badge color="red" data-testid="overdue-badge">
        Overdue
      </Badge>
    );
  }
  if (item.ageBusinessDays === limit) return <Badge color="yellow">Due today</Badge>;
  return (
    <Badge variant="light" color="gray">
      On time
    </Badge>
  );
}

/**
 * The review promise (issue 38): every pending application with its age in business days, the
 * overdue ones (over 3 business days) first and flagged; "Overdue only" filters them.
 */
export default function ReviewQueue() {
  const trpc = useTrpc();
  const [only, setOnly] = useState<'all' | 'overdue'>('all');
  const queue = useQuery(trpc.review.queue.queryOptions(only === 'overdue' ? { overdue: true } : {}));
  const limit = queue.data?.reviewBusinessDays ?? 3;
  const columns: DataColumn<Item>[] = [
    {
      header: 'Applicant',
      cell: (r) => (
        <Link to="/admin/dealers/$id" params={{ id: r.id }}>
          {r.fullName}
        </Link>
      ),
    },
    { header: 'Company', cell: (r) => r.companyName ?? '' },
    { header: 'Tier', cell: (r) => r.tier },
    { header: 'Submitted', cell: (r) => dayjs(r.submittedAt).format(DATE_FORMAT) },
    { header: 'Age', cell: (r) => plural(r.ageBusinessDays, 'business day') },
    { header: 'Decision expected by', cell: (r) => day(r.decisionExpectedBy) },
    { header: 'Review', cell: (r) => <AgeBadge item={r} limit={limit} /> },
  ];
  return (
    <Stack gap="xs" data-testid="review-queue">
      <Group justify="space-between" align="end">
        <div>
          <Title order={3} size="h4">
            Review queue
          </Title>
          {queue.data && (
            <Text size="sm" c="dimmed">
              {plural(queue.data.pending, 'pending application')}, {queue.data.overdue} overdue (over {limit} business
              days, counted in {zoneLabel(queue.data.timeZone)} time)
            </Text>
          )}
        </div>
        <SegmentedControl
          aria-label="Which applications"
          value={only}
          onChange={(v) => setOnly(v as 'all' | 'overdue')}
          data={[
            { value: 'all', label: 'All pending' },
            { value: 'overdue', label: 'Overdue only' },
          ]}
        />
      </Group>
      <DataTable
        rows={queue.data?.items ?? []}
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId="review-queue-row"
        minWidth={800}
        cards
        query={queue}
        empty={only === 'overdue' ? 'No application is overdue.' : 'No application is waiting.'}
      />
    </Stack>
  );
}
