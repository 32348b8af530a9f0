import type { AppRouter } from '@dn/api';
import { answerTime, DATE_FORMAT, RATING_MAX, ratePercent, SCORECARD_FIGURES, SCORECARD_LABELS } from '@dn/schema';
import { Group, Paper, Rating, SimpleGrid, Stack, Text } from '@mantine/core';
import type { inferRouterOutputs } from '@trpc/server';
import dayjs from 'dayjs';

/** Issue 50 (decision 1101): an installer's scorecard as the installer and the console read it. */

export type Scorecard = inferRouterOutputs<AppRouter>['scorecards']['mine'];
type Figures = Scorecard['tierMedians'];
type Key = keyof typeof SCORECARD_LABELS;

const number = (n: number | null, digits = 1) =>
  n === null ? '—' : Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(digits);

/** How a figure reads: the rating with two decimals, rates as percentages, times in minutes or hours. */
export function figure(key: Key, f: Pick<Figures, Key>): string {
  const v = f[key];
  if (key === 'averageRating') return v === null ? '—' : `${v.toFixed(2)} / ${RATING_MAX}`;
  if (key === 'acceptanceRate') return ratePercent(v);
  if (key === 'medianAnswerMinutes') return answerTime(v);
  return number(v);
}

const ORDER: readonly Key[] = SCORECARD_FIGURES;

/** Better when higher, except declines, expiries and the time to answer. */
const LOWER_IS_BETTER = new Set<Key>(['declined', 'expired', 'medianAnswerMinutes']);

function comparison(key: Key, own: number | null, median: number | null) {
  if (own === null || median === null || own === median) return null;
  const better = LOWER_IS_BETTER.has(key) ? own < median : own > median;
  return better ? ('better' as const) : ('worse' as const);
}

/** The figures, each beside the tier's median ("how each compares with the installer's tier"). */
export function ScorecardFigures({ card }: { card: Scorecard }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" data-testid="scorecard-figures">
      {ORDER.map((key) => {
        const cmp = comparison(key, card[key], card.tierMedians[key]);
        return (
          <Paper key={key} withBorder p="xs" data-testid={`scorecard-${key}`}>
            <Text size="xs" c="dimmed">
              {SCORECARD_LABELS[key]}
            </Text>
            <Text fw={700} size="lg">
              {figure(key, card)}
            </Text>
            <Text size="xs" c="dimmed">
              {card.tier} median {figure(key, card.tierMedians)}
              {cmp && (
                <Text span size="xs" fw={700} c={cmp === 'better' ? 'teal.9' : 'red.9'}>
                  {' · '}
                  {cmp === 'better' ? 'better' : 'below'}
                </Text>
              )}
            </Text>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}

type ReviewItem = Scorecard['latestReviews'][number] & { publicConsent?: boolean };

/** The latest reviews: stars, the comment as text, the day and the job's place. */
export function ReviewList({ reviews }: { reviews: ReviewItem[] }) {
  if (reviews.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No reviews yet.
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="scorecard-reviews">
      {reviews.map((r) => (
        <Paper key={`${r.createdAt}-${r.city}-${r.rating}`} withBorder p="xs" data-testid="scorecard-review">
          <Group gap="xs" justify="space-between">
            <Group gap="xs">
              <Rating
                value={r.rating}
                readOnly
                count={RATING_MAX}
                size="sm"
                role="img"
                aria-label={`${r.rating} of 5 stars`}
              />
              <Text size="sm" fw={600}>
                {r.rating} of 5
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {dayjs(r.createdAt).format(DATE_FORMAT)} · {r.city}, {r.state}
              {r.publicConsent !== undefined && (r.publicConsent ? ' · may be shown publicly' : ' · private')}
            </Text>
          </Group>
          {r.comment && (
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {r.comment}
            </Text>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
