import type { LandingState } from '../boot';
import { scrollToSection } from '../site/marketing/scroll';

/** The controls the app renders in the landing; the same list, in the same order, before and after it boots. */
const CONTROLS = 'a[href], button';

interface Control {
  index: number;
  tag: string;
  text: string;
}

/**
 * Hands the prerendered landing to the app when the visitor does something only the app does:
 * Enroll, Schedule a Call, the mobile menu, a link to another page. The click is held, the app is
 * loaded and renders the same page over this one, then the click is replayed on the same control
 * (and focus put back on it), so the wizard, the dialog or the next page opens from that one click.
 * Section links and Watch Demo only scroll, which needs no app. Until then nothing but this file
 * and its small imports run on the page; the app's files are only fetched into the cache, once the
 * visitor moves.
 */
export function takeOverOnDemand(opts: {
  /** Resolves to what the app should start from, or null when the page is leaving (signed in). */
  state: () => Promise<LandingState | null>;
  /** Called just before the app renders: the page's own timers stop. */
  beforeRender: () => void;
  /** Resolves once the app's page is drawn, before the held click is replayed (a light page's lazy route). */
  ready?: () => Promise<void>;
}): { bootNow: () => void } | undefined {
  const root = document.getElementById('root');
  const script = document.querySelector<HTMLScriptElement>('script[data-app-css]');
  if (!root || !script) return undefined;
  const css = (script.dataset.appCss ?? '').split(' ').filter(Boolean);
  const prefetch = (script.dataset.appPrefetch ?? '').split(' ').filter(Boolean);
  const controls = () => [...root.querySelectorAll<HTMLElement>(CONTROLS)];
  const held: Control[] = [];
  let app: Promise<typeof import('../boot')> | undefined;
  let booting = false;

  const identify = (el: HTMLElement): Control => ({
    index: controls().indexOf(el),
    tag: el.tagName,
    text: el.textContent ?? '',
  });
  const find = (c: Control) => {
    const all = controls();
    const same = (el: HTMLElement | undefined) => el?.tagName === c.tag && el.textContent === c.text;
    const at = all[c.index];
    return same(at) ? at : all.find(same);
  };

  // The app's stylesheets go in before the page's critical CSS, which keeps deciding how the page
  // looks until the app has rendered; then it is removed. The app's loader finds them already there.
  const loadApp = () => {
    app ??= (async () => {
      const critical = document.querySelector('style[data-critical]');
      await Promise.all(
        css.map(
          (href) =>
            new Promise<void>((done) => {
              if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return done();
              const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
              link.addEventListener('load', () => done());
              link.addEventListener('error', () => done());
              if (critical) critical.before(link);
              else document.head.append(link);
            }),
        ),
      );
      return import('../boot');
    })();
    return app;
  };

  const needsApp = (target: EventTarget | null, e?: MouseEvent): HTMLElement | null => {
    const el = target instanceof Element ? target.closest<HTMLElement>(CONTROLS) : null;
    if (!el || !root.contains(el) || el.dataset.section) return null;
    if (el instanceof HTMLAnchorElement) {
      if (el.getAttribute('href')?.startsWith('#')) return null;
      // New tab, download, another site: the browser's own.
      const own = !e || (e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey);
      if (!own || el.target || el.origin !== window.location.origin) return null;
    }
    return el;
  };

  /**
   * The answer to the click while the app loads (issue 36: within 100 ms, decision 0992): a veil with
   * a spinner over the page, gone once the click has been replayed and its dialog drawn.
   */
  const showFrame = () => {
    const veil = document.createElement('div');
    veil.dataset.testid = 'app-loading';
    veil.setAttribute('role', 'status');
    veil.style.cssText =
      'position:fixed;inset:0;z-index:1000;display:grid;place-items:center;background:rgba(0,0,0,.35);cursor:progress';
    veil.innerHTML =
      '<div style="background:#fff;border-radius:8px;padding:20px 28px;font:500 16px system-ui,sans-serif;color:#212529;display:flex;gap:12px;align-items:center">' +
      '<span aria-hidden="true" style="width:20px;height:20px;border:3px solid #ccebe2;border-top-color:#0b7458;border-radius:50%;animation:dn-spin .8s linear infinite"></span>Loading…</div>' +
      '<style>@keyframes dn-spin{to{transform:rotate(360deg)}}</style>';
    document.body.append(veil);
    return () => veil.remove();
  };

  const boot = async () => {
    booting = true;
    const hideFrame = showFrame();
    document.documentElement.setAttribute('aria-busy', 'true');
    try {
      const [{ startApp }, state] = await Promise.all([loadApp(), opts.state()]);
      if (!state) return;
      const active = document.activeElement;
      const focused = active instanceof HTMLElement && root.contains(active) ? identify(active) : null;
      opts.beforeRender();
      await startApp(state);
      await opts.ready?.();
      stop();
      document.querySelector('style[data-critical]')?.remove();
      if (focused) find(focused)?.focus({ preventScroll: true });
      // A double click while loading is one action.
      const replay = held.splice(0).filter((c, i, all) => i === 0 || c.index !== all[i - 1]?.index);
      for (const c of replay) find(c)?.click();
      // A replayed button's dialog loads its own chunk: the veil stays until it is drawn (or 3 s).
      if (replay.some((c) => c.tag === 'BUTTON'))
        await new Promise<void>((done) => {
          const until = Date.now() + 3_000;
          const check = () =>
            document.querySelector('[role="dialog"]') || Date.now() > until ? done() : requestAnimationFrame(check);
          requestAnimationFrame(check);
        });
    } catch (err) {
      // The app's files could not be loaded (offline, or replaced by a new release): load the page
      // the visitor asked for, or this one again, from the server.
      console.error('The app could not start', err);
      const link = held.map(find).find((el): el is HTMLAnchorElement => el instanceof HTMLAnchorElement);
      window.location.assign(link?.href ?? window.location.href);
    } finally {
      hideFrame();
      document.documentElement.removeAttribute('aria-busy');
    }
  };

  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented) return;
    const target = e.target instanceof Element ? e.target.closest<HTMLElement>(CONTROLS) : null;
    const section = target?.dataset.section ?? target?.getAttribute('href')?.match(/^#(.+)/)?.[1];
    if (target && root.contains(target) && section) {
      e.preventDefault();
      scrollToSection(section);
      return;
    }
    const el = needsApp(e.target, e);
    if (!el) return;
    e.preventDefault();
    held.push(identify(el));
    if (!booting) void boot();
  };
  // Loading starts as the finger or button goes down, a little before the click.
  const onPointerDown = (e: PointerEvent) => {
    if (needsApp(e.target)) void loadApp();
  };
  const stop = () => {
    document.removeEventListener('click', onClick);
    document.removeEventListener('pointerdown', onPointerDown);
  };
  document.addEventListener('click', onClick);
  document.addEventListener('pointerdown', onPointerDown);

  // Into the HTTP cache (not parsed or run) once the visitor shows a sign of life: a pointer move,
  // touch, scroll, key or focus, which comes well before a click. Not at load: a visitor who only
  // reads downloads nothing more, and a page that keeps the network busy after load was measured to
  // stretch Lighthouse's interactive window over its own work (decision 0503).
  const ENGAGED = ['pointermove', 'pointerdown', 'touchstart', 'scroll', 'keydown', 'focusin'] as const;
  const warm = () => {
    for (const href of prefetch) {
      document.head.append(Object.assign(document.createElement('link'), { rel: 'prefetch', href }));
    }
  };
  function onEngaged() {
    if ('requestIdleCallback' in window) window.requestIdleCallback(warm, { timeout: 1_000 });
    else setTimeout(warm, 0);
    for (const type of ENGAGED) window.removeEventListener(type, onEngaged, true);
  }
  for (const type of ENGAGED) window.addEventListener(type, onEngaged, { capture: true, passive: true });
  // A light page whose content needs the app at once (decision 1160).
  return {
    bootNow: () => {
      if (!booting) void boot();
    },
  };
}
