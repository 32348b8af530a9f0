import { Anchor, Card, Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import { RESOURCE_LINKS } from '../features/marketing/resources';

export const Route = createFileRoute('/resources')({ component: Page });

function Page() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to="/" size="sm">
          ← Back to home
        </Anchor>
        <Title order={1}>Dealer Resources</Title>
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
      </Stack>
    </Container>
  );
}
