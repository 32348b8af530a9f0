import { Button, Container, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useAuth, useLogout } from '../../lib/auth';
import { Logo } from './Logo';
import classes from './layout.module.css';
import { MobileMenu } from './MobileMenu';

/** The app's top navigation (hidden on /, /login, /admin/login by the root layout). */
export function TopNav() {
  const { user, isAuthenticated } = useAuth();
  const logout = useLogout();
  return (
    <header className={classes.header} data-testid="top-nav">
      <Container size="lg" className={classes.headerInner}>
        <Logo />
        <Group gap="md" visibleFrom="sm">
          {isAuthenticated ? (
            <>
              <Text size="sm" data-testid="welcome-line">
                Welcome, {user?.username || 'Admin'}
              </Text>
              <Button variant="default" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
                {logout.isPending ? 'Signing Out...' : 'Sign Out'}
              </Button>
            </>
          ) : (
            <Button component={Link} to="/login" size="sm">
              Sign In
            </Button>
          )}
        </Group>
        <MobileMenu />
      </Container>
    </header>
  );
}
