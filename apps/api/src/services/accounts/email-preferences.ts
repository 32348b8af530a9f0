import type { DB, Kysely } from '@dn/db';
import { isUnsubscribed, unsubscribeAddress } from '@dn/db/queries/email-preferences';
import type { RequestMeta } from '../../context';
import { audit } from '../audit/audit';

/**
 * What an address's one-click unsubscribe does (issue 40, decision 0983); the signed token that
 * names the address and category is services/mail/unsubscribe.ts's.
 */

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
