import { incentiveFigure } from '@dn/schema/claims';
import { Button, Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { preloadWhenIdle } from '../shared/lib/preload';
import { Stat } from '../site/marketing/Stat';
import { loadScheduleCallDialog, ScheduleCall } from '../site/schedule-call';
import { useClaimsInEffect } from '../site/shared/claims';

export const Route = createFileRoute('/presentation')({ component: Page });

function Page() {
  const [open, setOpen] = useState(false);
  useEffect(() => preloadWhenIdle(loadScheduleCallDialog), []);
  // Incentives are dated, owner-edited content (decision 0930): only those in effect, never a fixed figure.
  const incentives = (useClaimsInEffect().data?.items ?? []).filter((c) => incentiveFigure(c));
  return (
    <Container size="lg" py="xl">
      <Stack gap="xl">
        <div>
          <Title order={1}>Energy costs are rising. Your attic can fight back.</Title>
          <Text mt="sm" size="lg">
            Electricity rates climb about 10% every year, and an air conditioner loses 7% of its efficiency in its first
            year alone. A hot attic makes both worse.
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <Stat value="97%" label="Radiant heat reflected" />
          <Stat value="25-50%" label="Savings on cooling and heating" />
          <Stat value="30%" label="Up to 30% lower energy costs" />
          {incentives.map((c) => (
            <Stat key={c.id} value={incentiveFigure(c) ?? ''} label={c.text} />
          ))}
        </SimpleGrid>
        <section aria-labelledby="product">
          <Title order={2} id="product" mb="sm">
            The product
          </Title>
          <List spacing="xs">
            <List.Item>Insulation blankets with a radiant barrier that reflects 97% of radiant heat</List.Item>
            <List.Item>Solar attic fans that pull hot air out using the sun's energy</List.Item>
            <List.Item>Installed by trained crews of our dealer network</List.Item>
          </List>
        </section>
        <section aria-labelledby="book">
          <Title order={2} id="book" mb="xs">
            Talk to us
          </Title>
          <Text mb="md">Book a free 15-minute call and see what the program means for your business.</Text>
          <Button size="md" onClick={() => setOpen(true)}>
            Book My Call
          </Button>
        </section>
      </Stack>
      <ScheduleCall opened={open} onClose={() => setOpen(false)} />
    </Container>
  );
}
