import { Container, Stack, Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { AffiliateTab } from './AffiliateTab';
import { CallsTab } from './CallsTab';
import { DealersTab } from './DealersTab';
import { FormsTab } from './FormsTab';
import { SummaryCards } from './SummaryCards';
import { VideosTab } from './VideosTab';

/** The admin dashboard of SPEC section 2. Only the open tab mounts, so only its data polls. */
export function AdminConsole() {
  const [tab, setTab] = useState<string | null>('dealers');
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
          </Tabs.List>
          <Tabs.Panel value="dealers" pt="md">
            <DealersTab />
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
        </Tabs>
      </Stack>
    </Container>
  );
}
