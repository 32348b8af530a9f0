import { type ComponentType, lazy, Suspense } from 'react';

let Loaded: ComponentType | undefined;

/** Loads the footer's chunk; afterwards LazyFooter renders it without suspending. */
export const preloadFooter = () =>
  import('./Footer').then((m) => {
    Loaded = m.Footer;
  });

const Lazy = lazy(() => preloadFooter().then(() => ({ default: Loaded as ComponentType })));

/**
 * The footer in its own chunk (below the fold, and not on every page). The app taking over the
 * prerendered landing preloads it (boot.tsx), because a Suspense fallback would blank the footer
 * for a frame and shorten the page under the visitor.
 */
export function LazyFooter() {
  if (Loaded) return <Loaded />;
  return (
    <Suspense fallback={null}>
      <Lazy />
    </Suspense>
  );
}
