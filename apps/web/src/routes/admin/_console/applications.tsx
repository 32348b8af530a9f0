import type { ApplicationsSearch } from '@dn/schema';
import { applicationsSearch } from '@dn/schema';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { AdminSection } from '../../../features/admin/AdminSection';
import { DealersTab } from '../../../features/admin/DealersTab';
import { useSectionSearch } from '../../../features/admin/use-section-search';
import { searchAs } from '../../../lib/route-search';

// The review queue (issue 38: ages in business days, overdue first), loaded when the section opens.
const ReviewQueue = lazy(() => import('../../../features/review-queue/ReviewQueue'));

// The applications waiting for a decision: the review queue, then the dealer list, pending only.
export const Route = createFileRoute('/admin/_console/applications')({
  validateSearch: searchAs<ApplicationsSearch>(),
  component: ApplicationsPage,
});

function ApplicationsPage() {
  const [search, setSearch] = useSectionSearch(applicationsSearch);
  return (
    <AdminSection title="Applications">
      <Suspense fallback={null}>
        <ReviewQueue />
      </Suspense>
      <DealersTab search={search} onSearch={setSearch} pendingOnly />
    </AdminSection>
  );
}
