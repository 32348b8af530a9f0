import type { PublicUser } from '@dn/api';
import { getSession } from '../shared/lib/api';
import { rememberAppVersion } from '../shared/lib/app-version';
import { captureReferral } from '../shared/lib/referral';
import { takeOverOnDemand } from './take-over';
import { watchLandingVideos } from './videos';

/**
 * The prerendered landing's only script (docs/decisions/0503-prerendered-landing.md): what the
 * app's root layout and landing route do on load, without React. The app boots on demand.
 */
rememberAppVersion();
captureReferral();

// SPEC section 2: a signed-in user goes to /admin or /dashboard. The server sends the app instead
// of this page to a browser holding a session cookie, so this is for the rest (an ended session).
const user = getSession<PublicUser>().catch(() => null);
void user.then((u) => {
  if (u) window.location.replace(u.role === 'admin' ? '/admin' : '/dashboard');
});

const videos = watchLandingVideos();

takeOverOnDemand({
  state: async () => {
    if (await user) return null;
    return { user: null, videos: await videos.current() };
  },
  beforeRender: videos.stop,
});
