import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DB, Kysely } from '@dn/db';
import { isUnsubscribed, unsubscribeAddress } from '@dn/db/queries/email-preferences';
import type { RequestMeta } from '../../context';
import { audit } from '../audit/audit';

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

/** Whether the token's address already turned its category off. */
export const alreadyUnsubscribed = (db: Kysely<DB>, t: { address: string; category: string }) =>
  isUnsubscribed(db, t.address, t.category);

/** Turns the token's category off for its address (idempotent), with an audit row the first time. */
export async function unsubscribe(
  deps: { db: Kysely<DB> },
  meta: RequestMeta,
  t: { address: string; category: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await unsubscribeAddress(trx, t.address, t.category))) return;
    await audit(
      trx,
      { meta },
      {
        eventType: 'email.unsubscribed',
        category: 'email',
        message: `An address turned off ${t.category} emails`,
        details: { category: t.category },
      },
    );
  });
}
