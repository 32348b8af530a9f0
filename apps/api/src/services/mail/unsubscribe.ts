import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * One-click unsubscribe (issue 40, RFC 8058; docs/decisions/0983-well-formed-mail.md). The link of a
 * non-transactional email carries a token naming its address and category, signed with a key
 * derived from SESSION_SECRET: no row per email, and it works without signing in. It never
 * expires (an old digest's link must still work) and only ever turns mail off.
 */

export const UNSUBSCRIBE_PATH = '/api/email/unsubscribe';

const key = (secret: string) => createHmac('sha256', secret).update('dn:email-unsubscribe:v1').digest();
const mac = (secret: string, payload: string) =>
  createHmac('sha256', key(secret)).update(payload).digest('base64url').slice(0, 32);

export function unsubscribeToken(secret: string, address: string, category: string): string {
  const payload = Buffer.from(`${category}\n${address.toLowerCase()}`).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The address and category of a token, or null when it is not one of ours. */
export function readUnsubscribeToken(secret: string, token: unknown): { address: string; category: string } | null {
  if (typeof token !== 'string' || token.length > 1_000) return null;
  const [payload, sig, extra] = token.split('.');
  if (!payload || !sig || extra !== undefined) return null;
  const want = Buffer.from(mac(secret, payload));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  const [category, address] = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  return category && address ? { address, category } : null;
}

export const unsubscribeUrl = (publicUrl: string, secret: string, address: string, category: string) =>
  `${publicUrl}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(secret, address, category)}`;
