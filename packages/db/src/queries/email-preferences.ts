import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Who is not mailed (issue 40, migration 2610): `email_preferences`, the kinds of mail an address
 * turned off (one-click unsubscribe), and `email_suppressions`, addresses that hard-bounced. Both
 * keyed by the lower-cased address.
 */

/** Turns `category` off for `address`; true when it was on. */
export async function unsubscribeAddress(db: Executor, address: string, category: string): Promise<boolean> {
  const r = await db
    .insertInto('emailPreferences')
    .values({ address: address.toLowerCase(), category })
    .onConflict((oc) => oc.columns(['address', 'category']).doNothing())
    .returning('address')
    .executeTakeFirst();
  return r !== undefined;
}

export async function isUnsubscribed(db: Executor, address: string, category: string): Promise<boolean> {
  const row = await db
    .selectFrom('emailPreferences')
    .select('address')
    .where('address', '=', address.toLowerCase())
    .where('category', '=', category)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records that `address` must not be mailed again (until a dealer gives it again: the trigger of 2610). */
export async function suppressAddress(
  db: Executor,
  address: string,
  reason: 'hard_bounce' | 'complaint',
  detail: string,
): Promise<void> {
  await db
    .insertInto('emailSuppressions')
    .values({ address: address.toLowerCase(), reason, detail: detail.slice(0, 500) })
    .onConflict((oc) =>
      oc.column('address').doUpdateSet({ reason, detail: detail.slice(0, 500), createdAt: new Date() }),
    )
    .execute();
}

export const findSuppression = (db: Executor, address: string) =>
  db
    .selectFrom('emailSuppressions')
    .select(['reason', 'detail', 'createdAt'])
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();

/**
 * Of the claimed messages `ids`, marks 'suppressed' (final, their links scrubbed with `linkPattern`)
 * those to an address that hard-bounced, or of a category their address turned off, in one
 * statement; resolves with their ids.
 */
export async function suppressBlockedMail(
  db: Executor,
  ids: readonly string[],
  linkPattern: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await sql<{ id: string }>`
    update email_outbox o set status = 'suppressed', sent_at = null,
      text_body = regexp_replace(o.text_body, ${linkPattern}, '[removed]', 'g'),
      html_body = regexp_replace(o.html_body, ${linkPattern}, '[removed]', 'g')
    where o.id in (${sql.join(ids)})
      and (exists (select 1 from email_suppressions s where s.address = lower(o.to_address))
        or (o.category is not null and exists (
          select 1 from email_preferences p where p.address = lower(o.to_address) and p.category = o.category)))
    returning o.id`.execute(db);
  return r.rows.map((row) => row.id);
}
