import { APP_VERSION } from '@dn/schema';
import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useAuth, useLogout } from '../../lib/auth';
import classes from './layout.module.css';

type FooterLink = {
  to: '/' | '/presentation' | '/about' | '/resources' | '/dashboard' | '/admin' | '/login';
  label: string;
};

const HOME: FooterLink[] = [
  { to: '/', label: 'Home' },
  { to: '/presentation', label: 'Presentation' },
  { to: '/about', label: 'About' },
  { to: '/resources', label: 'Resources' },
];

/**
 * SPEC section 2 lists Home, Presentation, Dashboard, Admin and Sign In (About and Resources added,
 * issue 36, so visitors can find them); like the top navigation the
 * footer follows the session (decision 0711): a signed-in user gets their own console and Sign Out
 * instead of Sign In and a console that would refuse them.
 */
function linksFor(isAuthenticated: boolean, isAdmin: boolean): FooterLink[] {
  if (isAdmin) return [...HOME, { to: '/admin', label: 'Admin' }];
  if (isAuthenticated) return [...HOME, { to: '/dashboard', label: 'Dashboard' }];
  return [
    ...HOME,
    { to: '/dashboard', label: 'Dashboard' },
    { to: '/admin', label: 'Admin' },
    { to: '/login', label: 'Sign In' },
  ];
}

export function Footer() {
  const { isAuthenticated, isAdmin } = useAuth();
  const logout = useLogout();
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="sm">
          <Group gap="md" component="nav" aria-label="Footer">
            {linksFor(isAuthenticated, isAdmin).map((l) => (
              <Anchor key={l.to} component={Link} to={l.to} size="sm" c="dimmed">
                {l.label}
              </Anchor>
            ))}
            {isAuthenticated && (
              <Anchor
                component="button"
                type="button"
                size="sm"
                c="dimmed"
                onClick={() => logout.mutate()}
                disabled={logout.isPending}
              >
                {logout.isPending ? 'Signing Out...' : 'Sign Out'}
              </Anchor>
            )}
          </Group>
          <Text size="xs" c="dimmed" data-testid="app-version">
            Version {APP_VERSION}
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
