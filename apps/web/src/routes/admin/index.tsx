import { Container, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/admin/')({ component: Page });

function Page() {
  return (
    <Container py="xl">
      <Title order={1}>Admin Dashboard</Title>
    </Container>
  );
}
