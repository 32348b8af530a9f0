import { Container, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/presentation')({ component: Page });

function Page() {
  return (
    <Container py="xl">
      <Title order={1}>Presentation</Title>
    </Container>
  );
}
