import { Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';

/**
 * The dealer list's onboarding column: one request for the page's dealers (every cell asks the same
 * query), "3/5", "Complete" or "Overdue"; not approved yet: a dash.
 */
export function OnboardingCell({ id, pageIds }: { id: string; pageIds: string[] }) {
  const trpc = useTrpc();
  const q = useQuery(trpc.onboarding.summaries.queryOptions({ ids: pageIds }, { staleTime: 30_000 }));
  const s = q.data?.find((x) => x.id === id);
  if (!s)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (s.complete)
    return (
      <Badge color="green" variant="light">
        Complete
      </Badge>
    );
  return (
    <Badge color={s.overdue ? 'red' : 'gray'} variant="light" data-testid="onboarding-cell">
      {s.done}/{s.total}
      {s.overdue ? ' · overdue' : ''}
    </Badge>
  );
}
