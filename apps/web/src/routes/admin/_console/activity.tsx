import type { ActivitySearch } from '@dn/schema';
import { activitySearch } from '@dn/schema';
import { createFileRoute } from '@tanstack/react-router';
import { ActivityTab } from '../../../features/activity/ActivityTab';
import { AdminSection } from '../../../features/admin/AdminSection';
import { useSectionSearch } from '../../../features/admin/use-section-search';
import { searchAs } from '../../../lib/route-search';

// The audit trail (issue 14); a dealer's timeline links here with its id.
export const Route = createFileRoute('/admin/_console/activity')({
  validateSearch: searchAs<ActivitySearch>(),
  component: ActivityPage,
});

function ActivityPage() {
  const [search, setSearch] = useSectionSearch(activitySearch);
  return (
    <AdminSection title="Activity">
      <ActivityTab filters={search} onFilters={setSearch} />
    </AdminSection>
  );
}
