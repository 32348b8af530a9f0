import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../features/admin/AdminSection';
import { PayoutsPanel } from '../../../features/admin-commissions/PayoutsPanel';

export const Route = createFileRoute('/admin/_console/payouts')({ component: PayoutsPage });

function PayoutsPage() {
  return (
    <AdminSection title="Payout batches">
      <PayoutsPanel />
    </AdminSection>
  );
}
