import { adminJobsSearch } from '@dn/schema';
import { AdminSection } from '../shared/AdminSection';
import { useSectionSearch } from '../shared/use-section-search';
import { JobsTab } from './JobsTab';

export default function JobsSection() {
  const [search, setSearch] = useSectionSearch(adminJobsSearch);
  return (
    <AdminSection title="Jobs">
      <JobsTab status={search.status} onStatus={(status) => setSearch({ status })} />
    </AdminSection>
  );
}
