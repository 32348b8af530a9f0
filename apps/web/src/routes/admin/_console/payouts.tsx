import { Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { PayoutsPanel } from '../../../console/payees/PayoutsPanel';
import { AdminSection } from '../../../console/shared/AdminSection';
import { useAdminRole } from '../../../console/shared/role';

// The Risk section (issue 39): flagged referrals hold payouts, so it sits on this page, and its code
// loads one step later (React.lazy). Not a route of its own: the shell is at its budget (decision 0964).
const RiskPanel = lazy(() => import('../../../console/payees/RiskPanel'));
// Issue 47, item 4: the owner's payment settings and the 1099-NEC (threshold, report), loaded likewise.
const PaymentSettingsCard = lazy(() => import('../../../console/payees/PaymentSettingsCard'));
const TaxCard = lazy(() => import('../../../console/payees/TaxCard'));

export const Route = createFileRoute('/admin/_console/payouts')({
  // The section's data and lazy cards, in one batch beside the console's code (issue 47; decision 1221).
  // The route renders once they are sent (not answered). A chunk that fails to load, or a session
  // read that fails, leaves the page to ask for its own data (never the route's error screen).
  loader: ({ context }) => import('./-payouts-prefetch').then((m) => m.prefetchPayouts(context)).catch(() => undefined),
  component: PayoutsPage,
});

function PayoutsPage() {
  const { can } = useAdminRole();
  return (
    <>
      <AdminSection title="Payout batches">
        <PayoutsPanel />
      </AdminSection>
      <Stack mt="xl">
        <Suspense fallback={null}>
          {can('owner') && <PaymentSettingsCard />}
          <TaxCard />
        </Suspense>
      </Stack>
      {can('reviewer') && (
        <Stack mt="xl">
          <Title order={3} size="h4">
            Risk: flagged referrals
          </Title>
          <Suspense fallback={null}>
            <RiskPanel />
          </Suspense>
        </Stack>
      )}
    </>
  );
}
