import { Container, Stack, Tabs, Title } from '@mantine/core';
import { ActivityTab } from '../activity/ActivityTab';
import { CommissionsTab } from '../admin-commissions';
import { AccountTab } from '../admin-team/AccountTab';
import { useAdminRole } from '../admin-team/role';
import { TeamTab } from '../admin-team/TeamTab';
import { AffiliateTab } from './AffiliateTab';
import { CallsTab } from './CallsTab';
import { DealersTab } from './DealersTab';
import { FormsTab } from './FormsTab';
import { SummaryCards } from './SummaryCards';
import { ADMIN_TABS, type AdminSearch, type AdminTab } from './search';
import { VideosTab } from './VideosTab';

export interface AdminConsoleProps {
  /** The open tab and the dealer list's view, from the URL. */
  search: AdminSearch;
  /** Changes part of it (a navigation: Back undoes it). */
  onSearch: (patch: AdminSearch) => void;
}

/** The admin dashboard of SPEC section 2. Only the open tab mounts, so only its data polls. */
export function AdminConsole({ search, onSearch }: AdminConsoleProps) {
  const tab: AdminTab = search.tab ?? 'dealers';
  const { can } = useAdminRole();
  const setTab = (value: string | null) => {
    const next = ADMIN_TABS.find((t) => t === value);
    if (next) onSearch({ tab: next === 'dealers' ? undefined : next });
  };
  return (
    <Container size="xl" py="lg">
      <Stack>
        <Title order={1}>Admin Dashboard</Title>
        <SummaryCards />
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="dealers">Dealer Profiles</Tabs.Tab>
            <Tabs.Tab value="calls">Call Schedules</Tabs.Tab>
            <Tabs.Tab value="forms">First Order Forms</Tabs.Tab>
            <Tabs.Tab value="videos">Landing Videos</Tabs.Tab>
            <Tabs.Tab value="affiliates">Affiliate Tracking</Tabs.Tab>
            <Tabs.Tab value="commissions">Commissions</Tabs.Tab>
            <Tabs.Tab value="activity">Activity</Tabs.Tab>
            {can('owner') && <Tabs.Tab value="team">Team</Tabs.Tab>}
            <Tabs.Tab value="account">Your Account</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="dealers" pt="md">
            <DealersTab search={search} onSearch={onSearch} />
          </Tabs.Panel>
          <Tabs.Panel value="calls" pt="md">
            <CallsTab />
          </Tabs.Panel>
          <Tabs.Panel value="forms" pt="md">
            <FormsTab />
          </Tabs.Panel>
          <Tabs.Panel value="videos" pt="md">
            <VideosTab />
          </Tabs.Panel>
          <Tabs.Panel value="affiliates" pt="md">
            <AffiliateTab />
          </Tabs.Panel>
          <Tabs.Panel value="commissions" pt="md">
            <CommissionsTab />
          </Tabs.Panel>
          <Tabs.Panel value="activity" pt="md">
            <ActivityTab
              filters={{
                actor: search.actor,
                event: search.event,
                dealer: search.dealer,
                from: search.from,
                to: search.to,
              }}
              onFilters={(f) => onSearch(f)}
            />
          </Tabs.Panel>
          {can('owner') && (
            <Tabs.Panel value="team" pt="md">
              <TeamTab />
            </Tabs.Panel>
          )}
          <Tabs.Panel value="account" pt="md">
            <AccountTab />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Container>
  );
}
