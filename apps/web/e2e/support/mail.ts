import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from './site';
import { limit } from './time';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * Ends the undo window of every admin decision holding an email to `to`, as if its time had passed
 * (issue 46): the decision's `undo_until` and its held emails' not-before time move back together,
 * to a moment just past the window and its grace, so the server's sender (which looks every second
 * on the e2e server) sends them next. The e2e server's window is 300 s so that nothing races it; a
 * spec that waits for a decision's email is past the point where it could undo it.
 */
async function endUndoWindowsOf(to: string): Promise<void> {
  if (!process.env.E2E_DATABASE_URL) return;
  await sql(
    `with held as (
       select distinct a.id, a.undo_until - now() + interval '2100 milliseconds' as shift
       from admin_actions a join email_outbox o on o.action_id = a.id
       where lower(o.to_address) = lower($1) and o.status = 'pending' and a.undone_at is null
     ), mails as (
       update email_outbox o set next_attempt_at = o.next_attempt_at - held.shift
       from held where o.action_id = held.id and o.status = 'pending' and held.shift > interval '0'
     )
     update admin_actions a set undo_until = a.undo_until - held.shift
     from held where a.id = held.id and held.shift > interval '0'`,
    [to],
  );
}

/**
 * Waits for a message the real SMTP server of global-setup received. The limit catches a message
 * that never comes, not a busy machine: a scheduled email (a reminder, the digest) waits for the
 * server's next tick, its query and the sender's next poll, each of which a loaded machine delays
 * (issue 46); it returns as soon as the message is there.
 */
export async function waitForMail(to: string, subject?: RegExp, timeoutMs = limit(60_000)): Promise<Mail> {
  await endUndoWindowsOf(to);
  const dir = process.env.E2E_MAIL_DIR!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()) {
      const m = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Mail;
      if (m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject))) return m;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first link in a message that starts with the app's base URL. */
export function linkIn(mail: Mail, pathPrefix = '/'): string {
  const base = process.env.E2E_BASE_URL!;
  const re = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${pathPrefix}[^\\s"'<>)]*`);
  const m = mail.text.match(re) ?? mail.html.match(re);
  if (!m) throw new Error(`no link to ${pathPrefix} in "${mail.subject}"`);
  return m[0].replace(/&amp;/g, '&');
}
