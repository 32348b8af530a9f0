import { plural, SCORECARD_DAYS } from '@dn/schema';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReviewList, ScorecardFigures } from '../../shared/jobs/ScorecardView';
import { useTrpc } from '../../shared/lib/trpc';

/** The scorecard on a dealer's page in the console (issue 50), in its own chunk; nothing for an Affiliate. */
export default function ScorecardPanel({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const q = useQuery(trpc.scorecards.dealer.queryOptions({ id: dealerId }));
  if (q.isPending) return <Skeleton h={160} />;
  if (q.isError || !q.data.card) return null;
  const card = q.data.card;
  return (
    <Paper withBorder p="md" component="section" aria-label="Installer scorecard" data-testid="dealer-scorecard">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Installer scorecard
        </Title>
        <Text size="sm" c="dimmed">
          Ratings all time; offers and completed jobs in the last {SCORECARD_DAYS} days; beside the median of{' '}
          {plural(card.tierMedians.installers, `${card.tier} installer`)}.
        </Text>
        <ScorecardFigures card={card} />
        <Title order={4} size="h5">
          Latest reviews
        </Title>
        <ReviewList reviews={card.latestReviews} />
      </Stack>
    </Paper>
  );
}
