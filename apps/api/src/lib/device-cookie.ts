import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The device cookie (OWASP, lockout denial of service; decision 0630): a browser that signed in to
 * an account gets a signed value naming that account, and later spends a sign-in budget of its own.
 * Format: base64url(account) "." random id "." HMAC-SHA256 of both, with the session secret.
 */
export const DEVICE_COOKIE = 'dn_device';
export const DEVICE_COOKIE_MAX_AGE_SEC = 365 * 24 * 60 * 60;

const mac = (secret: string, body: string) =>
  createHmac('sha256', `device-cookie:${secret}`).update(body).digest('base64url');

/** A fresh device id (12 random bytes); the server keeps its SHA-256 (account_devices, issue 35). */
export const newDeviceId = () => randomBytes(12).toString('base64url');

export function signDevice(secret: string, account: string, id: string): string {
  const body = `${Buffer.from(account).toString('base64url')}.${id}`;
  return `${body}.${mac(secret, body)}`;
}

/** The account and id a cookie names, or null when it is absent, malformed or not signed by us. */
export function readDevice(secret: string, value: string | undefined): { account: string; id: string } | null {
  if (!value || value.length > 1024) return null;
  const parts = value.split('.');
  if (parts.length !== 3) return null;
  const [acct = '', id = '', sig = ''] = parts;
  const want = Buffer.from(mac(secret, `${acct}.${id}`));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  return { account: Buffer.from(acct, 'base64url').toString(), id };
}

/** A short, non-identifying name for a browser: "Firefox on Windows" (the full user agent is not kept). */
export function deviceOf(ua: string | null | undefined): string {
  if (!ua) return 'Unknown device';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'another system';
  if (browser === 'Browser' && os === 'another system') return 'Unknown device';
  return `${browser} on ${os}`;
}
