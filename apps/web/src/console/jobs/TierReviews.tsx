import { formatAnswerTime, formatScore, TIER_REVIEW_WORDS } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Button, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTrpc } from '../../shared/lib/trpc';
import { useAdminRole } from '../shared/role';

const percent = (r: number | null) => (r === null ? '—' : `${Math.round(r * 100)}%`);

/**
 * The owners' monthly tier review (issue 50, decision 1124): installers whose last 90 days suggest a
 * tier change, with the evidence, and one action each: the dealer's existing tier change (audited,
 * emailed, undoable like any other).
 */
export default function TierReviews() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const list = useQuery(trpc.jobs.tierReviews.queryOptions());
  const change = useMutation(
    trpc.admin.upgradeTier.mutationOptions({
      onSuccess: (r) => {
        notifications.show({ title: TIER_REVIEW_WORDS.changed, message: `Now ${r.tier}`, color: 'green' });
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.tierReviews.queryKey() });
      },
      onError: (error) => notifications.show({ title: 'Not changed', message: error.message, color: 'red' }),
    }),
  );
  const d = list.data;
  return (
    <Stack gap="xs" data-testid="tier-reviews">
      <Title order={3}>
        {TIER_REVIEW_WORDS.title}
        {d ? ` · ${d.month}` : ''}
      </Title>
      {d && (
        <>
          <Text size="sm" c="dimmed">
            {TIER_REVIEW_WORDS.intro(`${d.from} to ${d.to}`)}
          </Text>
          <Text size="sm" data-testid="tier-review-medians">
            {TIER_REVIEW_WORDS.medians(formatScore(d.medians.Preferred), formatScore(d.medians.Authorized))}
          </Text>
        </>
      )}
      <DataTable
        rows={d?.items ?? []}
        rowKey={(r) => r.dealerId}
        rowTestId="tier-review-row"
        minWidth={980}
        cards
        query={list}
        empty={TIER_REVIEW_WORDS.empty}
        columns={[
          {
            header: 'Installer',
            cell: (r) => (
              <Link to="/admin/dealers/$id" params={{ id: r.dealerId }}>
                {r.name}
              </Link>
            ),
          },
          {
            header: 'Tier',
            cell: (r) => r.tier,
          },
          { header: 'Score', cell: (r) => <Text fw={600}>{formatScore(r.score)}</Text> },
          {
            header: 'Rating',
            cell: (r) =>
              r.averageRating === null
                ? `No reviews`
                : `${r.averageRating.toFixed(1)} of 5 (${r.reviewCount} review${r.reviewCount === 1 ? '' : 's'})`,
          },
          { header: 'Accepted', cell: (r) => `${percent(r.acceptanceRate)} of ${r.offers}` },
          { header: 'Median answer', cell: (r) => formatAnswerTime(r.medianResponseSeconds) },
          { header: 'Expired', cell: (r) => String(r.expired) },
          {
            header: 'Suggested',
            cell: (r) =>
              can('reviewer') ? (
                <Button
                  size="compact-sm"
                  variant={r.suggestedTier === 'Preferred' ? 'filled' : 'default'}
                  loading={change.isPending && change.variables?.id === r.dealerId}
                  aria-label={`${r.suggestedTier === 'Preferred' ? TIER_REVIEW_WORDS.upgrade : TIER_REVIEW_WORDS.downgrade}: ${r.name}`}
                  onClick={() => change.mutate({ id: r.dealerId, tier: r.suggestedTier })}
                >
                  {r.suggestedTier === 'Preferred' ? TIER_REVIEW_WORDS.upgrade : TIER_REVIEW_WORDS.downgrade}
                </Button>
              ) : (
                r.suggestedTier
              ),
          },
        ]}
      />
    </Stack>
  );
}
