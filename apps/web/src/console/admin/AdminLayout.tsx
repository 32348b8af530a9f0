import { ACCESS_DENIED } from '@dn/schema/messages';
import { TooltipDelayGroup } from '@dn/ui';
import { Button, Container, Drawer, Group, NavLink, type NavLinkProps, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { createLink, Navigate, Outlet } from '@tanstack/react-router';
import type { ComponentPropsWithRef } from 'react';
import { PageLoader } from '../../shared/components/PageLoader';
import { useAuth } from '../../shared/lib/auth';
import { useAdminRole } from '../shared/role';
import classes from './admin.module.css';
import { ADMIN_SECTIONS } from './sections';

function NavAnchor(props: NavLinkProps & ComponentPropsWithRef<'a'>) {
  return <NavLink component="a" {...props} />;
}
/** Mantine's NavLink as a router link: typed `to`, preloading, `aria-current="page"` when open. */
const SectionLink = createLink(NavAnchor);

/** The sections the signed-in admin's role sees, as links. */
function SectionNav({ onNavigate }: { onNavigate?: () => void }) {
  const { can } = useAdminRole();
  return (
    <nav aria-label="Admin sections">
      {ADMIN_SECTIONS.filter((s) => !s.needs || can(s.needs)).map((s) => (
        <SectionLink
          key={s.to}
          to={s.to}
          label={s.label}
          onClick={onNavigate}
          // Dealers is /admin itself: open only there, whatever its filters.
          activeOptions={{ exact: s.to === '/admin', includeSearch: false }}
          activeProps={{ active: true } as never}
          className={classes.navLink}
        />
      ))}
    </nav>
  );
}

/**
 * The admin console (SPEC section 2) as a layout (issue 34): the sections' navigation on the left,
 * a drawer behind a burger below 768 px, and the open section beside it. Only the open section
 * mounts, so only its data polls.
 */
export function AdminLayout() {
  const auth = useAuth();
  const [drawer, { open, close }] = useDisclosure(false);
  if (auth.isLoading) return <PageLoader />;
  // Signed out while the page is open.
  if (!auth.isAuthenticated) return <Navigate to="/admin/login" replace />;
  if (!auth.isAdmin) {
    return (
      <Container py="xl">
        <Text role="alert" fw={500}>
          {ACCESS_DENIED}
        </Text>
      </Container>
    );
  }
  return (
    // Tooltips here share the SPEC's open delay and skip window (decision 0711).
    <TooltipDelayGroup>
      <Container size="xl" py="lg">
        <Stack>
          <Group justify="space-between" wrap="nowrap">
            <Title order={1}>Admin Dashboard</Title>
            {/* A worded button, not a second burger under the site menu's (issue 47: two stacked menu buttons). */}
            <Button
              hiddenFrom="sm"
              variant="default"
              size="sm"
              style={{ flexShrink: 0 }}
              onClick={open}
              aria-label="Open the admin sections"
              aria-expanded={drawer}
            >
              Sections
            </Button>
          </Group>
          <div className={classes.console}>
            <div className={classes.sideNav}>
              <SectionNav />
            </div>
            <div className={classes.section}>
              <Outlet />
            </div>
          </div>
        </Stack>
      </Container>
      <Drawer opened={drawer} onClose={close} title="Admin sections" size="xs">
        <SectionNav onNavigate={close} />
      </Drawer>
    </TooltipDelayGroup>
  );
}
