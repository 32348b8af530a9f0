import { APP_VERSION, APP_VERSION_STORAGE_KEY } from '@dn/schema';

/** Remembers the client version once (SPEC section 2: stored under app-version if absent). */
export function rememberAppVersion(): void {
  try {
    if (localStorage.getItem(APP_VERSION_STORAGE_KEY) === null) {
      localStorage.setItem(APP_VERSION_STORAGE_KEY, APP_VERSION);
    }
  } catch {
    // Storage can be disabled (private modes); the label still shows.
  }
}
