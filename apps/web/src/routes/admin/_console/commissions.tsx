import type { CommissionsSearch } from '@dn/schema';
import { commissionsSearch } from '@dn/schema';
import { Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AffiliateTab } from '../../../console/admin/AffiliateTab';
import { CommissionsTab } from '../../../console/commissions/CommissionsTab';
import { ImportOrders } from '../../../console/commissions/ImportOrders';
import { RulesPanel } from '../../../console/commissions/RulesPanel';
import { AdminSection } from '../../../console/shared/AdminSection';
import { useAdminRole } from '../../../console/shared/role';
import { useSectionSearch } from '../../../console/shared/use-section-search';
import { searchAs } from '../../../shared/lib/route-search';

// Orders & commissions (issue 13): the ledger (its filters and page in the URL), the rules, the
// orders import and the referral funnel that earns them.
export const Route = createFileRoute('/admin/_console/commissions')({
  validateSearch: searchAs<CommissionsSearch>(),
  component: CommissionsPage,
});

function CommissionsPage() {
  const { can } = useAdminRole();
  const [search, setSearch] = useSectionSearch(commissionsSearch);
  return (
    <AdminSection title="Orders & commissions">
      <CommissionsTab search={search} onSearch={setSearch} />
      <Title order={3}>Commission rules</Title>
      <RulesPanel />
      {can('reviewer') && (
        <>
          <Title order={3}>Import orders</Title>
          <ImportOrders />
        </>
      )}
      <Title order={3}>Referral tracking</Title>
      <AffiliateTab />
    </AdminSection>
  );
}
