import { type Claim, incentiveFigure, sourceLink } from '@dn/schema/claims';
import { Anchor, List, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getOrNull } from '../../shared/lib/api';

/**
 * The homeowner claims and incentives in effect today (issue 37, decision 0930), from GET /api/claims:
 * owner-edited content, never a figure written into a page. With a 5-digit ZIP, that ZIP's state and
 * utility incentives too.
 */
export interface ClaimsInEffect {
  today: string;
  items: Claim[];
}

/** GET /api/claims (REST, as the landing videos: the public pages need no tRPC client). */
export const claimsQueryOptions = (zip: string) =>
  queryOptions({
    queryKey: ['claims', zip],
    queryFn: async () =>
      (await getOrNull<ClaimsInEffect>(`/api/claims${zip ? `?zip=${zip}` : ''}`)) ?? { today: '', items: [] },
    staleTime: 60_000,
  });

export function useClaimsInEffect(zip?: string) {
  return useQuery(claimsQueryOptions(zip && /^\d{5}$/.test(zip) ? zip : ''));
}

/** A claim's source: its link (new tab) or its citation. */
export function ClaimSource({ source }: { source: string }) {
  const link = sourceLink(source);
  return link ? (
    <Anchor href={link} target="_blank" rel="noopener noreferrer" size="xs">
      Source
    </Anchor>
  ) : (
    <Text span size="xs" c="dimmed">
      ({source})
    </Text>
  );
}

/** The claims and incentives in effect as list items, each with its figure and its source. */
export function ClaimItems() {
  const claims = useClaimsInEffect();
  return (
    <>
      {claims.data?.items.map((c) => (
        <List.Item key={c.id} data-testid="claim-item">
          {incentiveFigure(c) ? `${incentiveFigure(c)}: ` : ''}
          {c.text} <ClaimSource source={c.source} />
        </List.Item>
      ))}
    </>
  );
}
