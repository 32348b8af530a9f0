import { APP_VERSION } from '@dn/schema';
import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import classes from './layout.module.css';

const LINKS = [
  { to: '/', label: 'Home' },
  { to: '/presentation', label: 'Presentation' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/admin', label: 'Admin' },
  { to: '/login', label: 'Sign In' },
] as const;

export function Footer() {
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="sm">
          <Group gap="md" component="nav" aria-label="Footer">
            {LINKS.map((l) => (
              <Anchor key={l.to} component={Link} to={l.to} size="sm" c="dimmed">
                {l.label}
              </Anchor>
            ))}
          </Group>
          <Text size="xs" c="dimmed" data-testid="app-version">
            Version {APP_VERSION}
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
