import type { ApplicationsSearch } from '@dn/schema';
import { applicationsSearch } from '@dn/schema';
import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../features/admin/AdminSection';
import { DealersTab } from '../../../features/admin/DealersTab';
import { useSectionSearch } from '../../../features/admin/use-section-search';
import { searchAs } from '../../../lib/route-search';

// The applications waiting for a decision: the dealer list, pending only.
export const Route = createFileRoute('/admin/_console/applications')({
  validateSearch: searchAs<ApplicationsSearch>(),
  component: ApplicationsPage,
});

function ApplicationsPage() {
  const [search, setSearch] = useSectionSearch(applicationsSearch);
  return (
    <AdminSection title="Applications">
      <DealersTab search={search} onSearch={setSearch} pendingOnly />
    </AdminSection>
  );
}
