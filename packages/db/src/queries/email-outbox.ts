import { sql } from 'kysely';
import type { EmailAttachment } from '../types';
import type { Executor } from './executor';

export interface ClaimedMail {
  id: string;
  kind: string;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  attachments: EmailAttachment[];
  attempts: number;
}

/**
 * Claims up to `limit` due messages for sending. SKIP LOCKED lets several instances share the
 * outbox; a message left 'sending' before `staleBefore` (its sender died) is claimed again.
 */
export async function claimDueMail(db: Executor, limit: number, staleBefore: Date): Promise<ClaimedMail[]> {
  const r = await sql<ClaimedMail>`
    update email_outbox set status = 'sending', attempts = attempts + 1, next_attempt_at = now()
    where id in (
      select id from email_outbox
      where (status = 'pending' and next_attempt_at <= now())
         or (status = 'sending' and next_attempt_at <= ${staleBefore})
      order by created_at
      limit ${limit}
      for update skip locked
    )
    returning id, kind, to_address, subject, text_body, html_body, attachments, attempts`.execute(db);
  return r.rows;
}
