import { takeOverOnDemand } from '../landing/take-over';
import { rememberAppVersion } from '../shared/lib/app-version';
import { captureReferral } from '../shared/lib/referral';

/**
 * The landing's hand-over (decision 0503) for a light page (decision 1160): a link or a control the
 * page's script does not handle boots the app, which starts from what the script fetched (under the
 * app's query keys) and draws the same page; the click is replayed once the page's lazy route is drawn.
 */
export function takeOverLight(opts: { queries: () => ReadonlyArray<readonly [readonly unknown[], unknown]> }) {
  // What the root layout does on load, on every page (once per page load: the app booted later does not repeat it).
  rememberAppVersion();
  captureReferral();
  const root = document.getElementById('root');
  return takeOverOnDemand({
    // The server sends the app, not this page, to a browser with a session cookie: nobody is signed in.
    state: async () => ({ user: null, videos: undefined, queries: opts.queries() }),
    beforeRender: () => {},
    ready: () =>
      new Promise<void>((done) => {
        const until = Date.now() + 5_000;
        const check = () =>
          root?.querySelector('main h1') || Date.now() > until ? done() : requestAnimationFrame(check);
        check();
      }),
  });
}
