import { Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { EnergyBreakdown } from '../features/marketing/EnergyBreakdown';
import { Stat } from '../features/marketing/Stat';

export const Route = createFileRoute('/about')({ component: Page });

function Page() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xl">
        <div>
          <Title order={1}>About Our Products</Title>
          <Text mt="sm" size="lg">
            Radiant-barrier insulation blankets and solar attic fans that keep attics cool and bills low.
          </Text>
        </div>

        <section aria-labelledby="benefits">
          <Title order={2} id="benefits" mb="sm">
            Benefits
          </Title>
          <List spacing="xs">
            <List.Item>Reflects up to 97% of radiant heat before it reaches the living space</List.Item>
            <List.Item>25-50% savings on cooling and heating costs</List.Item>
            <List.Item>Up to 30% reduction in overall energy costs</List.Item>
            <List.Item>Solar attic fans vent hot air using free energy from the sun</List.Item>
            <List.Item>Eligible for the 30% federal tax credit</List.Item>
          </List>
        </section>

        <section aria-labelledby="certs">
          <Title order={2} id="certs" mb="sm">
            Certifications
          </Title>
          <List spacing="xs">
            <List.Item>Radiant barrier tested to reflect 97% of radiant heat</List.Item>
            <List.Item>Qualifies for the 30% federal tax credit</List.Item>
            <List.Item>Installed by trained, insured dealer crews</List.Item>
          </List>
        </section>

        <section aria-labelledby="costs">
          <Title order={2} id="costs" mb="sm">
            Electricity costs keep rising
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stat value="10%" label="Electricity rates rise about 10% per year" />
            <Stat value="7%" label="A/C efficiency lost in its first year" />
            <Stat value="25-50%" label="Savings on cooling and heating" />
          </SimpleGrid>
        </section>

        <section aria-labelledby="energy">
          <Title order={2} id="energy" mb="sm">
            Energy-use breakdown
          </Title>
          <EnergyBreakdown />
        </section>
      </Stack>
    </Container>
  );
}
