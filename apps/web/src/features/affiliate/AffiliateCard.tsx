import { POLL_MS, RECENT_REFERRALS } from '@dn/schema';
import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../lib/trpc';
import { CreateLinkForm } from './CreateLinkForm';
import { ReferralsTable } from './ReferralsTable';
import { ShareLink } from './ShareLink';

/** The affiliate program: create a link, share it, and the most recent referrals (polled every 5 s). */
export function AffiliateCard() {
  const trpc = useTrpc();
  const stats = useQuery(
    trpc.account.affiliateStats.queryOptions(undefined, { refetchInterval: POLL_MS.affiliateStats }),
  );
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h3" mb="sm">
        Affiliate Program
      </Title>
      {!stats.data ? (
        <Skeleton height={80} />
      ) : stats.data.hasAffiliateLink && stats.data.shareUrl ? (
        <Stack>
          <Text size="sm">
            Recruiter ID: <strong>{stats.data.recruiterId}</strong> · Total referrals: {stats.data.totalReferrals}
          </Text>
          <ShareLink url={stats.data.shareUrl} />
          <Title order={3} size="h4">
            Recent referrals
          </Title>
          <Text size="xs" c="dimmed">
            Your {RECENT_REFERRALS} most recent referrals. Email addresses are partly hidden to protect applicants.
          </Text>
          <ReferralsTable referrals={stats.data.referrals} />
        </Stack>
      ) : (
        <CreateLinkForm />
      )}
    </Card>
  );
}
