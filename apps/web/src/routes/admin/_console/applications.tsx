import type { ApplicationsSearch } from '@dn/schema';
import { applicationsSearch } from '@dn/schema';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { DealersTab } from '../../../console/admin/DealersTab';
import { AdminSection } from '../../../console/shared/AdminSection';
import { useSectionSearch } from '../../../console/shared/use-section-search';
import { searchAs } from '../../../shared/lib/route-search';

// The review queue (issue 38: ages in business days, overdue first), loaded when the section opens.
const ReviewQueue = lazy(() => import('../../../console/review-queue/ReviewQueue'));

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
