import { Container, Paper, Title } from '@mantine/core';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { RegistrationWizard } from '../site/wizard';

export const Route = createFileRoute('/register')({ component: Page });

function Page() {
  const navigate = useNavigate();
  return (
    <Container size="md" py="xl">
      <Title order={1} mb="lg">
        Become a Dealer
      </Title>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <RegistrationWizard onDone={() => navigate({ to: '/' })} onCancel={() => navigate({ to: '/' })} />
      </Paper>
    </Container>
  );
}
