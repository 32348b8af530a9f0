import { Anchor, Card, Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useCallback } from 'react';
import { RESOURCE_LINKS } from '../site/marketing/resources';
import { SavingsCalculator } from '../site/savings-calculator/SavingsCalculator';
import { type SavingsSearch, toParam, validateSavingsSearch } from '../site/savings-calculator/search';

export const Route = createFileRoute('/resources')({ validateSearch: validateSavingsSearch, component: Page });

function Page() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // Typing replaces the history entry (Back leaves the page rather than undoing keystrokes).
  const onSearch = useCallback(
    (s: SavingsSearch) =>
      navigate({
        search: {
          attic: toParam(s.attic ?? ''),
          bills: s.bills,
          region: s.region,
          quote: toParam(s.quote ?? ''),
          zip: toParam(s.zip ?? ''),
        },
        replace: true,
        resetScroll: false,
      }),
    [navigate],
  );
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to="/" size="sm">
          ← Back to home
        </Anchor>
        <Title order={1}>Dealer Resources</Title>
        <Anchor component={Link} to="/quote" size="sm">
          Get an installation quote
        </Anchor>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {RESOURCE_LINKS.map((r) => (
            <Card key={r.title} withBorder padding="lg">
              <Title order={3} size="h4">
                {r.title}
              </Title>
              <Text size="sm" c="dimmed" mt={4} mb="md">
                {r.description}
              </Text>
              <Anchor href={r.href} target="_blank" rel="noopener noreferrer" mt="auto">
                Open {r.title.toLowerCase()} (opens in a new tab)
              </Anchor>
            </Card>
          ))}
        </SimpleGrid>
        <section aria-labelledby="soon">
          <Title order={2} id="soon" size="h3" mb="xs">
            Coming soon
          </Title>
          <List>
            <List.Item>Product documentation</List.Item>
            <List.Item>Marketing materials</List.Item>
            <List.Item>Training</List.Item>
            <List.Item>Sales tools</List.Item>
            <List.Item>Support contacts</List.Item>
          </List>
        </section>
        <SavingsCalculator search={search} onSearch={onSearch} />
      </Stack>
    </Container>
  );
}
