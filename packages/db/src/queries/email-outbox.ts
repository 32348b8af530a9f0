import { sql } from 'kysely';
import type { EmailAttachment } from '../types';
import type { Executor } from './executor';

/** What a message is: its kind (template), recipient and rendered content. */
interface MailContent {
  kind: string;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  attachments: EmailAttachment[];
}

export interface ClaimedMail extends MailContent {
  id: string;
  attempts: number;
  tokenHash: string | null;
  /** null: transactional; otherwise a kind of mail the recipient can turn off (migration 2610). */
  category: string | null;
  /** MAIL_PRIORITY; with seq, the order the sender delivers a claim in (RETURNING keeps none). */
  priority: number;
  /** The queue order (migration 4400): taken at insert, so two emails queued in one millisecond keep theirs. */
  seq: string;
}

/** The queue's two classes (migration 2610): transactional mail leaves before bulk mail. */
export const MAIL_PRIORITY = { transactional: 0, bulk: 1 } as const;

/**
 * What a finished email's bodies lose, so no live secret rests in the table once it has left:
 * every match of `linkPattern`, a one-time link's token as a whole word (a PostgreSQL regular
 * expression). The token's format is written once, in @dn/schema (TOKEN_IN_TEXT), which this
 * package may not import: the caller passes it.
 */
const scrubbed = (column: 'text_body' | 'html_body', linkPattern: string) =>
  sql`regexp_replace(${sql.raw(column)}, ${linkPattern}, '[removed]', 'g')`;

/**
 * Claims up to `limit` due messages for sending. SKIP LOCKED lets several instances share the
 * outbox; a message left 'sending' before `staleBefore` (its sender died) is claimed again.
 *
 * One recipient's emails leave in the order they were queued (issue 12; `seq`, a number taken at
 * insert, migration 4400: PGlite's clock keeps milliseconds, so a timestamp could tie): a message is claimed
 * only when no older message to the same address is being sent or still waits its first try or
 * is due (so at most one per address and priority per claim, and the sender delivers a claim in
 * order). An older message backing off after a failed attempt does not hold the newer ones back,
 * nor does an older bulk message hold back a transactional one (a reset link passes a digest).
 *
 * Transactional mail first (issue 40): the candidates are walked by priority, then oldest first, on
 * `email_outbox_queue_priority_idx` (migration 2610; 0990 before it), which holds the waiting messages
 * in that order: a claim reads from the first until it has `limit` due ones,
 * not the whole queue (a message held or backing off is passed over). Left to itself, the planner
 * reads and sorts every waiting message whenever its statistics say few wait (a new table, a
 * database without autovacuum, a backlog that grew since the last ANALYZE): 0.8 s a claim with
 * 187,000 waiting. So the claim runs with sorting and bitmap scans priced out (CLAIM_PLAN), which
 * leaves the walk in order as its only plan.
 */
export async function claimDueMail(db: Executor, limit: number, staleBefore: Date): Promise<ClaimedMail[]> {
  return db.transaction().execute((trx) => claimDueMailIn(trx, limit, staleBefore));
}

/**
 * The claim inside the caller's transaction (`trx`, never the pool: CLAIM_PLAN is local to it), so
 * the sender's last look at the batch commits with the claim (issue 49).
 */
export async function claimDueMailIn(trx: Executor, limit: number, staleBefore: Date): Promise<ClaimedMail[]> {
  await CLAIM_PLAN.execute(trx);
  return (await claimDueMailSql(limit, staleBefore).execute(trx)).rows;
}

/** The planner settings of the claim's transaction (claimDueMail). */
export const CLAIM_PLAN = sql`select set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`;

/** The claim's statement (claimDueMail), run after CLAIM_PLAN; exported for its plan test. */
export const claimDueMailSql = (limit: number, staleBefore: Date) => sql<ClaimedMail>`
    update email_outbox set status = 'sending', attempts = attempts + 1, next_attempt_at = now()
    where id in (
      select o.id from email_outbox o
      where o.status in ('pending', 'sending')
        and ((o.status = 'pending' and o.next_attempt_at <= now())
          or (o.status = 'sending' and o.next_attempt_at <= ${staleBefore}))
        and not exists (
          select 1 from email_outbox e
          where lower(e.to_address) = lower(o.to_address)
            and e.status in ('pending', 'sending')
            and e.seq < o.seq
            and e.priority <= o.priority
            and (e.status = 'sending' or e.attempts = 0 or e.next_attempt_at <= now())
        )
      order by o.priority, o.seq
      limit ${limit}
      for update of o skip locked
    )
    returning id, kind, to_address, subject, text_body, html_body, attachments, attempts, token_hash, category, priority, seq`;

/**
 * Marks 'superseded' every waiting message (or only those of `ids`, a claim's) whose one-time link
 * was retired, used or expired before it left, and scrubs its link (`linkPattern`, see `scrubbed`):
 * it is never sent. Resolves with their ids.
 */
export async function supersedeDeadLinks(
  db: Executor,
  linkPattern: string,
  ids?: readonly string[],
): Promise<string[]> {
  if (ids?.length === 0) return [];
  const r = await sql<{ id: string }>`
    update email_outbox o set status = 'superseded', text_body = ${scrubbed('text_body', linkPattern)},
      html_body = ${scrubbed('html_body', linkPattern)}, sent_at = null
    where o.status in ('pending', 'sending') and o.token_hash is not null
      ${ids ? sql`and o.id in (${sql.join(ids)})` : sql``}
      and not exists (
        select 1 from magic_link_tokens t
        where t.token = o.token_hash and t.used = false and t.expires_at > now()
      )
    returning o.id`.execute(db);
  return r.rows.map((row) => row.id);
}

export interface NewMail extends MailContent {
  dealerId: string | null;
  /** MAIL_PRIORITY: transactional (the default) or bulk. */
  priority?: number;
  /** A kind of mail the recipient can turn off (digest, reminders); absent: transactional. */
  category?: string | null;
  /** The SHA-256 of the one-time link the message carries, if any (never the link). */
  tokenHash?: string | null;
}

/** A queued message's row, due at `due` (now unless an undo window holds it). */
export const mailValues = (m: NewMail, due = new Date()) => ({
  ...m,
  attachments: JSON.stringify(m.attachments),
  nextAttemptAt: due,
});

/** Queues a message, due now; call it with the transaction whose change the message reports. */
export async function insertMail(db: Executor, m: NewMail): Promise<string> {
  const row = await db.insertInto('emailOutbox').values(mailValues(m)).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Messages that left (or, without a mail server, were logged): their one-time links (`linkPattern`)
 * are scrubbed from the stored bodies, so the table keeps the subject and kind for the timeline,
 * never a live link.
 */
export async function markMailDone(
  db: Executor,
  ids: string | readonly string[],
  status: 'sent' | 'logged',
  linkPattern: string,
): Promise<void> {
  const list = typeof ids === 'string' ? [ids] : ids;
  if (list.length === 0) return;
  await sql`
    update email_outbox set status = ${status}, sent_at = now(),
      ${status === 'sent' ? sql`last_error = null,` : sql``}
      text_body = ${scrubbed('text_body', linkPattern)}, html_body = ${scrubbed('html_body', linkPattern)}
    where id in (${sql.join(list)})`.execute(db);
}

/**
 * A failed attempt: back to 'pending' for another try at `nextAttemptAt`, or 'failed' for good
 * (then its one-time links, `linkPattern`, are scrubbed).
 */
export async function markMailFailed(
  db: Executor,
  id: string,
  f: { giveUp: boolean; lastError: string; nextAttemptAt: Date; bounced?: boolean },
  linkPattern: string,
): Promise<void> {
  // bounced: the server refused the recipient for good (issue 40); final, as a failure given up.
  const status = f.bounced ? 'bounced' : f.giveUp ? 'failed' : 'pending';
  await db
    .updateTable('emailOutbox')
    .set({ status, lastError: f.lastError, nextAttemptAt: f.nextAttemptAt })
    .where('id', '=', id)
    .execute();
  // Given up for good: its links are scrubbed as a sent message's are.
  if (status !== 'pending') {
    await sql`update email_outbox set text_body = ${scrubbed('text_body', linkPattern)},
      html_body = ${scrubbed('html_body', linkPattern)}
      where id = ${id}`.execute(db);
  }
}

/**
 * Queues an action's emails, not to be sent before `notBefore` (the end of its undo window). An
 * action of more than one dealer (a bulk review) is bulk mail: it waits behind transactional mail.
 */
export async function insertActionMails(
  db: Executor,
  actionId: string,
  notBefore: Date,
  mails: readonly NewMail[],
): Promise<void> {
  if (mails.length === 0) return;
  const bulk = mails.length > 1 ? { priority: MAIL_PRIORITY.bulk } : {};
  await db
    .insertInto('emailOutbox')
    .values(mails.map((m) => ({ ...mailValues(m, notBefore), ...bulk, actionId })))
    .execute();
}

/** Holds an action's waiting emails until `notBefore` (a bulk action's window starts when its last batch ends). */
export async function holdMailOfAction(db: Executor, actionId: string, notBefore: Date): Promise<void> {
  await db
    .updateTable('emailOutbox')
    .set({ nextAttemptAt: notBefore })
    .where('actionId', '=', actionId)
    .where('status', '=', 'pending')
    .execute();
}

/** Undo: the action's emails still waiting are deleted; resolves with how many. */
export async function deleteQueuedMailOfAction(db: Executor, actionId: string): Promise<number> {
  const r = await db
    .deleteFrom('emailOutbox')
    .where('actionId', '=', actionId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
