import { TooltipDelayGroup } from '@dn/ui';
import { Container, Stack, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
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
  const tabs: { value: AdminTab; label: string; panel: ReactNode }[] = [
    { value: 'dealers', label: 'Dealer Profiles', panel: <DealersTab search={search} onSearch={onSearch} /> },
    { value: 'calls', label: 'Call Schedules', panel: <CallsTab /> },
    { value: 'forms', label: 'First Order Forms', panel: <FormsTab /> },
    { value: 'videos', label: 'Landing Videos', panel: <VideosTab /> },
    { value: 'affiliates', label: 'Affiliate Tracking', panel: <AffiliateTab /> },
    { value: 'commissions', label: 'Commissions', panel: <CommissionsTab /> },
    {
      value: 'activity',
      label: 'Activity',
      panel: (
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
      ),
    },
    ...(can('owner') ? [{ value: 'team' as const, label: 'Team', panel: <TeamTab /> }] : []),
    { value: 'account', label: 'Your Account', panel: <AccountTab /> },
  ];
  return (
    // Tooltips here share the SPEC's open delay and skip window (decision 0711).
    <TooltipDelayGroup>
      <Container size="xl" py="lg">
        <Stack>
          <Title order={1}>Admin Dashboard</Title>
          <SummaryCards />
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              {tabs.map((t) => (
                <Tabs.Tab key={t.value} value={t.value}>
                  {t.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {tabs.map((t) => (
              <Tabs.Panel key={t.value} value={t.value} pt="md">
                {t.panel}
              </Tabs.Panel>
            ))}
          </Tabs>
        </Stack>
      </Container>
    </TooltipDelayGroup>
  );
}
