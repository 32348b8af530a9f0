import { type ComponentType, createElement, lazy } from 'react';

/**
 * Loads a dialog's code once the page is idle, so its first click answers at once (issue 36: every
 * click answers within 100 ms; decision 0992). The import is the same one `lazy()` makes, so the
 * browser fetches and runs the chunk once.
 */
export function preloadWhenIdle(...loaders: (() => Promise<unknown>)[]) {
  const run = () => {
    for (const load of loaders) void load().catch(() => undefined);
  };
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(run, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }
  const t = setTimeout(run, 200);
  return () => clearTimeout(t);
}

/**
 * `lazy()` whose code can be loaded ahead (`preload`). Once loaded, the component renders directly:
 * a lazy component suspends on its first render even when its module is already there, and React
 * holds a revealed Suspense boundary for about 300 ms, which is what made a first click feel dead.
 */
export function lazyWithPreload<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((m) => {
      loaded = m.default;
      return m;
    });
  const Lazy = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called once per module, as lazy() is
  function Preloaded(props: P) {
    const Component = loaded ?? Lazy;
    return createElement(Component, props);
  }
  return Object.assign(Preloaded, { preload });
}
