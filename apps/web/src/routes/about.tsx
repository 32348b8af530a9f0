import { Anchor, Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { EnergyBreakdown } from '../site/marketing/EnergyBreakdown';
import { Stat } from '../site/marketing/Stat';
import { ClaimItems } from '../site/shared/claims';

export const Route = createFileRoute('/about')({ component: Page });

/** A titled part of the page, named by its heading for assistive technology. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Title order={2} id={id} mb="sm">
        {title}
      </Title>
      {children}
    </section>
  );
}

function Page() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xl">
        <div>
          <Title order={1}>About Our Products</Title>
          <Text mt="sm" size="lg">
            Radiant-barrier insulation blankets and solar attic fans that keep attics cool and bills low.
          </Text>
          <Anchor component={Link} to="/quote" mt="xs" display="inline-block">
            Get an installation quote
          </Anchor>
        </div>

        <Section id="benefits" title="Benefits">
          <List spacing="xs">
            <List.Item>Reflects up to 97% of radiant heat before it reaches the living space</List.Item>
            <List.Item>25-50% savings on cooling and heating costs</List.Item>
            <List.Item>Up to 30% reduction in overall energy costs</List.Item>
            <List.Item>Solar attic fans vent hot air using free energy from the sun</List.Item>
            <ClaimItems />
          </List>
        </Section>

        <Section id="certs" title="Certifications">
          <List spacing="xs">
            <List.Item>Radiant barrier tested to reflect 97% of radiant heat</List.Item>
            <List.Item>Installed by trained, insured dealer crews</List.Item>
          </List>
        </Section>

        <Section id="costs" title="Electricity costs keep rising">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stat value="10%" label="Electricity rates rise about 10% per year" />
            <Stat value="7%" label="A/C efficiency lost in its first year" />
            <Stat value="25-50%" label="Savings on cooling and heating" />
          </SimpleGrid>
        </Section>

        <Section id="energy" title="Energy-use breakdown">
          <EnergyBreakdown />
        </Section>
      </Stack>
    </Container>
  );
}
