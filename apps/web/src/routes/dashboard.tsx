import { POLL_MS } from '@dn/schema';
import { TooltipDelayGroup } from '@dn/ui';
import { Container, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ProfileCard } from '../portal/account-settings/ProfileCard';
import { SecurityCard } from '../portal/account-settings/SecurityCard';
import { AffiliateCard } from '../portal/affiliate';
import { EarningsCard } from '../portal/commissions';
import {
  AnchorLink,
  ButtonLink,
  DealerInfoCard,
  FirstOrderCard,
  OrderHistoryCard,
  showsFirstOrderCard,
} from '../portal/dashboard';
import { SessionEndedNotice } from '../shared/auth';
import { PageLoader } from '../shared/components/PageLoader';
import { setCurrentUser, useAuth } from '../shared/lib/auth';
import { httpStatusOf, useTrpc } from '../shared/lib/trpc';

/** `?offer=<id>`: the job offer an installer's email links to (issue 47), opened after sign-in. */
interface DashboardSearch {
  offer?: string;
}
// A uuid's shape (the server checks it is one): 36 hex digits and dashes.
const OFFER_ID = /^[\da-f-]{36}$/i;

export const Route = createFileRoute('/dashboard')({
  validateSearch: (search: Record<string, unknown>): DashboardSearch =>
    typeof search.offer === 'string' && OFFER_ID.test(search.offer) ? { offer: search.offer } : {},
  // The cards' data and lazy code, in one batch beside the page's own code (issue 47; decision 1221).
  // The route renders once they are sent (not answered). A chunk that fails to load, or a session
  // read that fails, leaves the page to ask for its own data (never the route's error screen).
  loader: ({ context }) =>
    import('./-dashboard-prefetch').then((m) => m.prefetchDashboard(context)).catch(() => undefined),
  component: DashboardPage,
});

// The onboarding checklist and the reschedule page load with their own chunks (issue 38).
const OnboardingCard = lazy(() => import('../portal/onboarding/OnboardingCard'));
const RescheduleCall = lazy(() => import('../portal/onboarding/RescheduleCall'));
/** The emailed reschedule link's one-time token (`#reschedule=...`): no sign-in needed. */
const rescheduleToken = () => /^#reschedule=([\w-]+)$/.exec(window.location.hash)?.[1] ?? null;
// Payout details, the W-9 and the statement (issue 39): loaded when the dashboard renders, not in the shell.
const PayoutsCard = lazy(() => import('../portal/payees/PayoutsCard'));
// Job offers, the jobs a dealer sold or installs, and the installer's service area (issue 37).
const JobsCard = lazy(() => import('../portal/jobs/JobsCard'));
// The installer's scorecard (issue 50): its own chunk, for Authorized and Preferred dealers.
const ScorecardCard = lazy(() => import('../portal/jobs/ScorecardCard'));

function DashboardPage() {
  const auth = useAuth();
  const { offer } = Route.useSearch();
  const token = rescheduleToken();
  if (token) {
    return (
      <Suspense fallback={<PageLoader />}>
        <RescheduleCall token={token} />
      </Suspense>
    );
  }
  if (auth.isLoading) return <PageLoader />;
  if (!auth.isAuthenticated) return <SignedOut offer={offer} />;
  if (auth.isAdmin) {
    return (
      <Container py="xl">
        <Title order={1}>Dealer Dashboard</Title>
        <Text mt="md">
          This dashboard is for dealer accounts. <AnchorLink to="/admin">Go to the admin dashboard</AnchorLink>
        </Text>
      </Container>
    );
  }
  return <DealerDashboard offer={offer} />;
}

function SignedOut({ offer }: { offer: string | undefined }) {
  // An emailed offer's link: straight to sign-in, which brings the dealer back to the offer.
  if (offer) return <Navigate to="/login" search={{ offer }} replace />;
  return (
    <Container size="xs" py="xl">
      <Stack align="center">
        <Title order={1}>Welcome</Title>
        <SessionEndedNotice />
        <Text c="dimmed" ta="center">
          Sign in to see your dealer dashboard.
        </Text>
        <ButtonLink to="/login">Go to Login</ButtonLink>
      </Stack>
    </Container>
  );
}

const SEEN_KEY = 'dn.dashboard.seen';

/**
 * "Welcome" on a dealer's first visit to the dashboard in this browser, "Welcome back" after
 * (issue 36; decision 0905): the browser remembers which dealers it has shown the dashboard to.
 */
function useGreeting(dealerId: string | undefined): string {
  const [first, setFirst] = useState<boolean | null>(null);
  useEffect(() => {
    if (!dealerId || first !== null) return;
    let seen: string[] = [];
    try {
      seen = JSON.parse(localStorage.getItem(SEEN_KEY) ?? '[]') as string[];
      if (!Array.isArray(seen)) seen = [];
    } catch {
      seen = [];
    }
    setFirst(!seen.includes(dealerId));
    try {
      if (!seen.includes(dealerId)) localStorage.setItem(SEEN_KEY, JSON.stringify([...seen, dealerId].slice(-20)));
    } catch {
      // Storage full or refused: the greeting stays "Welcome".
    }
  }, [dealerId, first]);
  return first === false ? 'Welcome back' : 'Welcome';
}

function DealerDashboard({ offer }: { offer: string | undefined }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const info = useQuery(trpc.account.info.queryOptions(undefined, { refetchInterval: POLL_MS.dealerInfo }));
  const form = useQuery(trpc.account.firstOrderForm.queryOptions(undefined, { enabled: Boolean(info.data) }));
  const [ordersPage, setOrdersPage] = useState(1);
  const orders = useQuery(
    trpc.account.orders.queryOptions(
      { page: ordersPage },
      { enabled: Boolean(info.data), refetchInterval: POLL_MS.dealerInfo, placeholderData: keepPreviousData },
    ),
  );
  const firstOrderAt = orders.data?.firstOrderAt;
  const installs = Boolean(info.data) && info.data?.tier !== 'Affiliate';
  // Open offers come first while any is open, or when an emailed offer's link opened the page (issue 47).
  const openOffers = useQuery(
    trpc.jobs.offers.queryOptions(undefined, { enabled: installs, refetchInterval: POLL_MS.dealerInfo }),
  );
  // Once first, it stays first for this visit: answering the last offer does not move (and reset) the card.
  const firstOnce = useRef(false);
  firstOnce.current ||= installs && (Boolean(offer) || (openOffers.data?.items.length ?? 0) > 0);
  const offersFirst = firstOnce.current;
  const jobsCard = info.data && (
    <Suspense fallback={null}>
      <JobsCard installs={installs} focusOffer={offer} />
    </Suspense>
  );
  const greeting = useGreeting(info.data?.id);

  // Signed out elsewhere, suspended, or the session expired: fall back to the signed-out view.
  useEffect(() => {
    if (httpStatusOf(info.error) === 401) setCurrentUser(queryClient, null);
  }, [info.error, queryClient]);

  return (
    <TooltipDelayGroup>
      <Container py="xl">
        <Stack gap="lg">
          <Title order={1}>Dealer Dashboard</Title>
          {info.data && (
            <Text c="dimmed" data-testid="dashboard-welcome">
              {greeting}, {info.data.fullName}
              {info.data.companyName ? ` of ${info.data.companyName}` : ''}.
            </Text>
          )}
          {offersFirst && jobsCard}
          {info.data && (
            <Suspense fallback={null}>
              <OnboardingCard />
            </Suspense>
          )}
          <DealerInfoCard info={info.data} />
          {/* A first order replaces the first-order card by the order history (decision 0720). */}
          {orders.data && firstOrderAt ? (
            <OrderHistoryCard orders={{ ...orders.data, firstOrderAt }} page={ordersPage} onPage={setOrdersPage} />
          ) : (
            !orders.isPending &&
            info.data &&
            form.data &&
            showsFirstOrderCard(info.data, form.data) && <FirstOrderCard form={form.data} />
          )}
          {!offersFirst && jobsCard}
          {installs && (
            <Suspense fallback={null}>
              <ScorecardCard />
            </Suspense>
          )}
          <AffiliateCard />
          <EarningsCard />
          <Suspense fallback={null}>
            <PayoutsCard />
          </Suspense>
          <ProfileCard />
          <SecurityCard />
          <Text>
            Looking for presentations, marketing material and training?{' '}
            <AnchorLink to="/resources">Dealer Resources</AnchorLink>
          </Text>
        </Stack>
      </Container>
    </TooltipDelayGroup>
  );
}
