import { RECRUITER_COOKIE, RECRUITER_COOKIE_DAYS, RECRUITER_ID_RE } from '@dn/schema';
import { postJson } from './api';

/** The recruiter id the visitor arrived with: the `r` query parameter first, then the cookie. */
export function currentRecruiterId(): string | undefined {
  const fromUrl = new URLSearchParams(window.location.search).get('r');
  if (fromUrl && RECRUITER_ID_RE.test(fromUrl)) return fromUrl;
  return recruiterFromCookie();
}

/** The recruiter id of the visitor's cookie alone (the quote form names who sent the homeowner). */
export function recruiterFromCookie(): string | undefined {
  const fromCookie = readCookie(RECRUITER_COOKIE);
  return fromCookie && RECRUITER_ID_RE.test(fromCookie) ? fromCookie : undefined;
}

function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

const secure = () => window.location.protocol === 'https:';

export function clearRecruiterCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the cookie must stay readable by this page (not httpOnly).
  document.cookie = `${RECRUITER_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure() ? '; Secure' : ''}`;
}

let captured = false;

/**
 * `?r=ID` on any page: keeps the id in the recruiter_id cookie (the server sets it too) and
 * reports the capture. Invalid ids are ignored with a warning. Tracking never blocks the visitor.
 * Once per page load: the prerendered landing's script and then the app it boots both call it.
 */
export function captureReferral(): void {
  if (captured) return;
  captured = true;
  const r = new URLSearchParams(window.location.search).get('r');
  if (r === null) return;
  if (!RECRUITER_ID_RE.test(r)) {
    console.warn('Ignored an invalid recruiter id in the link');
    return;
  }
  const expires = new Date(Date.now() + RECRUITER_COOKIE_DAYS * 86_400_000);
  // biome-ignore lint/suspicious/noDocumentCookie: see clearRecruiterCookie.
  document.cookie = `${RECRUITER_COOKIE}=${encodeURIComponent(r)}; Expires=${expires.toUTCString()}; Path=/; SameSite=Lax${secure() ? '; Secure' : ''}`;
  const timestamp = new Date().toISOString();
  const forget = (p: Promise<unknown>) => p.catch(() => undefined);
  forget(
    postJson('/api/affiliate/track-event', {
      eventType: 'url_capture',
      recruiterId: r,
      details: { url: window.location.href.slice(0, 2_000), referrer: document.referrer.slice(0, 2_000), timestamp },
    }),
  );
  forget(
    postJson('/api/affiliate/track-event', {
      eventType: 'cookie_set',
      recruiterId: r,
      details: { expirationDate: expires.toISOString(), isSecure: secure(), timestamp },
    }),
  );
}

/** A hash of user agent, language and platform: groups one browser's events without storing them. */
async function clientHash(): Promise<string> {
  const data = new TextEncoder().encode(`${navigator.userAgent}|${navigator.language}|${navigator.platform}`);
  const digest = await crypto.subtle.digest('SHA-256', data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** After a referred signup: reported, failure only logged. */
export function trackReferredSignup(recruiterId: string, email: string): void {
  clientHash()
    .then((hash) => postJson('/api/affiliate/track-signup', { recruiterId, userData: { email }, clientHash: hash }))
    .catch((err: unknown) => console.warn('Referral signup tracking failed', err));
}
