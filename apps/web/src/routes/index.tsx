import { Container, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/')({ component: Page });

function Page() {
  return (
    <Container py="xl">
      <Title order={1}>Become a Dealer</Title>
    </Container>
  );
}
