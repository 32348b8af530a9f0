import { Button, Container, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <Container size="sm" py={80} ta="center">
      <Title order={1}>Page Not Found</Title>
      <Text c="dimmed" mt="md">
        The page you are looking for does not exist or has moved.
      </Text>
      <Button component={Link} to="/" mt="xl">
        Back to home
      </Button>
    </Container>
  );
}
