import { SCORECARD_DAYS } from '@dn/schema';
import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReviewList, ScorecardFigures } from '../../shared/jobs/ScorecardView';
import { useTrpc } from '../../shared/lib/trpc';

/**
 * The installer's scorecard on the dashboard (issue 50), in its own chunk: their rating and reviews,
 * the offers of the last 90 days, each beside their tier's median, and the latest reviews.
 */
export default function ScorecardCard() {
  const trpc = useTrpc();
  const q = useQuery(trpc.scorecards.mine.queryOptions(undefined, { retry: false }));
  if (q.isError) return null;
  return (
    <Card withBorder data-testid="scorecard-card">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Your scorecard
        </Title>
        {q.isPending ? (
          <Skeleton h={160} />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Homeowners' ratings, and how you answered offers in the last {SCORECARD_DAYS} days, beside the median of{' '}
              {q.data.tier} installers.
            </Text>
            <ScorecardFigures card={q.data} />
            <Title order={3} size="h5">
              Latest reviews
            </Title>
            <ReviewList reviews={q.data.latestReviews} />
          </>
        )}
      </Stack>
    </Card>
  );
}
