import { Burger } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, Suspense, useEffect } from 'react';
import { lazyWithPreload, preloadWhenIdle } from '../../lib/preload';
import classes from './layout.module.css';

// The drawer and its links load on the first tap: the landing's first paint does not need them.
const MobileMenuDrawer = lazyWithPreload(() => import('./MobileMenuDrawer'));

/**
 * The mobile side menu (SPEC section 2), three variants after About and Resources (everyone):
 * admins get Admin Dashboard and Public Site; other signed-in users Home, Dashboard (issue 36: a
 * dealer has already applied) and Logout; visitors Admin Login.
 * `extra` lets a page add its own links above (the landing's section links).
 */
export function MobileMenu({ extra }: { extra?: (close: () => void) => ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const [loaded, { open: load }] = useDisclosure(false);
  // Where the burger shows (below Mantine's sm), its drawer's code loads when the page is idle (issue 36).
  useEffect(
    () => (window.matchMedia('(max-width: 47.99em)').matches ? preloadWhenIdle(MobileMenuDrawer.preload) : undefined),
    [],
  );
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
