import { Button, Drawer, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useAuth, useLogout } from '../../lib/auth';

export default function MobileMenuDrawer({
  opened,
  close,
  extra,
}: {
  opened: boolean;
  close: () => void;
  extra?: ((close: () => void) => ReactNode) | undefined;
}) {
  const { isAuthenticated, isAdmin } = useAuth();
  const logout = useLogout();
  return (
    <Drawer opened={opened} onClose={close} position="right" size="xs" title="Menu" hiddenFrom="sm">
      <Stack gap="xs" data-testid="mobile-menu">
        {extra?.(close)}
        <Button component={Link} to="/about" variant="subtle" justify="flex-start" onClick={close}>
          About
        </Button>
        <Button component={Link} to="/resources" variant="subtle" justify="flex-start" onClick={close}>
          Resources
        </Button>
        {!isAuthenticated && (
          <Button component={Link} to="/quote" variant="subtle" justify="flex-start" onClick={close}>
            Homeowner Quote
          </Button>
        )}
        {isAdmin ? (
          <>
            <Button component={Link} to="/admin" variant="subtle" justify="flex-start" onClick={close}>
              Admin Dashboard
            </Button>
            <Button component={Link} to="/" variant="subtle" justify="flex-start" onClick={close}>
              Public Site
            </Button>
          </>
        ) : isAuthenticated ? (
          <>
            <Button component={Link} to="/" variant="subtle" justify="flex-start" onClick={close}>
              Home
            </Button>
            <Button component={Link} to="/dashboard" variant="subtle" justify="flex-start" onClick={close}>
              Dashboard
            </Button>
            <Button
              variant="subtle"
              color="red"
              justify="flex-start"
              loading={logout.isPending}
              onClick={() => logout.mutate()}
            >
              Logout
            </Button>
          </>
        ) : (
          <Button component={Link} to="/admin/login" variant="subtle" justify="flex-start" onClick={close}>
            Admin Login
          </Button>
        )}
      </Stack>
    </Drawer>
  );
}
