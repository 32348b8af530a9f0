import { POLL_MS } from '@dn/schema';
import { Card, Group, Pagination, Skeleton, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { CreateLinkForm } from './CreateLinkForm';
import { Funnel } from './Funnel';
import { ReferralsTable } from './ReferralsTable';
import { ShareLink } from './ShareLink';

/**
 * The affiliate program: create a link, share it, the recruiter's funnel and every referral with
 * its status, paged on the server (issue 13; the link polled every 5 s as SPEC section 9 says).
 */
export function AffiliateCard() {
  const trpc = useTrpc();
  const [page, setPage] = useState(1);
  const stats = useQuery(
    trpc.account.affiliateStats.queryOptions(undefined, { refetchInterval: POLL_MS.affiliateStats }),
  );
  const referrals = useQuery(
    trpc.account.referrals.queryOptions(
      { page },
      { refetchInterval: POLL_MS.affiliateStats, placeholderData: keepPreviousData },
    ),
  );
  const funnel = useQuery(trpc.account.referralFunnel.queryOptions(undefined, { refetchInterval: POLL_MS.dealerInfo }));
  const list = referrals.data;
  const pages = list ? Math.ceil(list.total / list.pageSize) : 0;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h3" mb="sm">
        Affiliate Program
      </Title>
      {!stats.data ? (
        <Skeleton height={80} />
      ) : (
        <Stack>
          {stats.data.hasAffiliateLink && stats.data.shareUrl ? (
            <>
              <Text size="sm">
                Recruiter ID: <strong>{stats.data.recruiterId}</strong> · Total referrals: {stats.data.totalReferrals}
              </Text>
              <ShareLink url={stats.data.shareUrl} />
            </>
          ) : (
            <CreateLinkForm />
          )}
          {/* Someone can name the dealer as their recruiter without a link, so these show either way. */}
          {(stats.data.hasAffiliateLink || (list && list.total > 0)) && (
            <>
              <Title order={3} size="h4">
                Your funnel
              </Title>
              {funnel.data ? <Funnel funnel={funnel.data} /> : <Skeleton height={60} />}
              <Title order={3} size="h4">
                Your referrals
              </Title>
              <Text size="xs" c="dimmed">
                Newest first. Email addresses are partly hidden to protect applicants.
              </Text>
              {list ? <ReferralsTable referrals={list.items} /> : <Skeleton height={80} />}
              {pages > 1 && (
                <Group justify="flex-end">
                  <Pagination total={pages} value={page} onChange={setPage} aria-label="Referral pages" />
                </Group>
              )}
            </>
          )}
        </Stack>
      )}
    </Card>
  );
}
