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

export function signDevice(secret: string, account: string): string {
  const body = `${Buffer.from(account).toString('base64url')}.${randomBytes(12).toString('base64url')}`;
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
