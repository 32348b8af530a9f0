import type { DealersSearch } from '@dn/schema';
import { dealersSearch } from '@dn/schema';
import { createFileRoute, Navigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { DealersTab } from '../../../console/admin/DealersTab';
import { legacyTabTarget } from '../../../console/admin/legacy-tabs';
import { SummaryCards } from '../../../console/admin/SummaryCards';
import { AdminSection } from '../../../console/shared/AdminSection';
import { useSectionSearch } from '../../../console/shared/use-section-search';
import { searchAs } from '../../../shared/lib/route-search';

// Dealers, the console's first section, is /admin itself: bookmarks and emails of /admin keep working.
export const Route = createFileRoute('/admin/_console/')({
  validateSearch: searchAs<DealersSearch & { tab?: string }>(),
  component: DealersPage,
});

// The compliance documents waiting for review (issue 45), loaded with the onboarding screens.
const ComplianceQueue = lazy(() => import('../../../console/admin/ComplianceReview'));

function DealersPage() {
  // A link of the former tab bar (/admin?tab=calls): the section that tab became.
  const target = legacyTabTarget(useSearch({ strict: false }));
  if (target) return <Navigate to={target.to} search={target.search as never} replace />;
  return <Dealers />;
}

function Dealers() {
  const [search, setSearch] = useSectionSearch(dealersSearch);
  return (
    <AdminSection title="Dealers">
      <SummaryCards />
      <Suspense fallback={null}>
        <ComplianceQueue />
      </Suspense>
      <DealersTab search={search} onSearch={setSearch} />
    </AdminSection>
  );
}
