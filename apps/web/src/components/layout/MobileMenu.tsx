import { Burger } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, type ReactNode, Suspense } from 'react';
import classes from './layout.module.css';

// The drawer and its links load on the first tap: the landing's first paint does not need them.
const MobileMenuDrawer = lazy(() => import('./MobileMenuDrawer'));

/**
 * The mobile side menu (SPEC section 2), three variants after About and Resources (everyone):
 * admins get Admin Dashboard and Public Site; other signed-in users Home, Dashboard (issue 36: a
 * dealer has already applied) and Logout; visitors Admin Login.
 * `extra` lets a page add its own links above (the landing's section links).
 */
export function MobileMenu({ extra }: { extra?: (close: () => void) => ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const [loaded, { open: load }] = useDisclosure(false);
  return (
    <>
      <Burger
        opened={opened}
        onClick={() => {
          load();
          toggle();
        }}
        hiddenFrom="sm"
        size="sm"
        aria-label={opened ? 'Close menu' : 'Open menu'}
        className={classes.burger}
      />
      {loaded && (
        <Suspense fallback={null}>
          <MobileMenuDrawer opened={opened} close={close} extra={extra} />
        </Suspense>
      )}
    </>
  );
}
