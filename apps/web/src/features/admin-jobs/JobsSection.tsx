import { adminJobsSearch } from '@dn/schema';
import { AdminSection } from '../admin/AdminSection';
import { useSectionSearch } from '../admin/use-section-search';
import { JobsTab } from './JobsTab';

export default function JobsSection() {
  const [search, setSearch] = useSectionSearch(adminJobsSearch);
  return (
    <AdminSection title="Jobs">
      <JobsTab status={search.status} onStatus={(status) => setSearch({ status })} />
    </AdminSection>
  );
}
