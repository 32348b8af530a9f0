import type { DB, EmailAttachment, Kysely } from '@dn/db';
import { type ClaimedMail, claimDueMail } from '@dn/db/queries/email-outbox';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  /** What the message is, for the dealer's timeline: 'approval', 'password_reset', ... */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: EmailAttachment[];
  dealerId?: string | null;
}

const MAX_ATTEMPTS = 12;
/** A message claimed by a process that died mid-send goes back to the queue after this. */
const STALE_SENDING_MS = 5 * 60_000;

/**
 * Writes a message to the outbox inside the caller's transaction: it is sent only if the
 * change that caused it commits, and it is never lost if sending fails.
 */
export async function enqueueMail(db: Kysely<DB>, m: MailMessage): Promise<string> {
  const row = await db
    .insertInto('emailOutbox')
    .values({
      kind: m.kind,
      toAddress: m.to,
      subject: m.subject,
      textBody: m.text,
      htmlBody: m.html ?? null,
      attachments: JSON.stringify(m.attachments ?? []),
      dealerId: m.dealerId ?? null,
      nextAttemptAt: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 2 ** attempts * 15_000);
}

/**
 * Delivers the outbox. With SMTP_URL through nodemailer; without it each message is logged
 * and marked 'logged', so a developer can still read the links it carries.
 */
export class MailService {
  private transport: Transporter | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: { smtpUrl: string | undefined; from: string; log: FastifyBaseLogger },
  ) {
    this.transport = opts.smtpUrl ? nodemailer.createTransport(withTimeouts(opts.smtpUrl)) : null;
  }

  /** Sends what is due now, without waiting; failures stay queued. */
  kick(): void {
    void this.flush().catch((err) => this.opts.log.warn({ err }, 'mail flush failed'));
  }

  /** Sends every due message; resolves with how many were handled. One flush at a time per process. */
  flush(): Promise<number> {
    this.running ??= this.flushOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  start(intervalMs = 10_000): void {
    this.timer ??= setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    this.transport?.close();
  }

  private async flushOnce(): Promise<number> {
    let handled = 0;
    for (;;) {
      const batch = await this.claim(10);
      if (batch.length === 0) return handled;
      for (const m of batch) {
        await this.deliver(m);
        handled++;
      }
    }
  }

  private claim(limit: number) {
    return claimDueMail(this.db, limit, new Date(Date.now() - STALE_SENDING_MS));
  }

  private async deliver(m: ClaimedMail): Promise<void> {
    if (!this.transport) {
      this.opts.log.info(
        { mail: { to: m.toAddress, subject: m.subject, kind: m.kind }, text: m.textBody },
        'email (no SMTP_URL: logged, kept in the outbox)',
      );
      await this.db
        .updateTable('emailOutbox')
        .set({ status: 'logged', sentAt: new Date() })
        .where('id', '=', m.id)
        .execute();
      return;
    }
    try {
      await this.transport.sendMail({
        from: this.opts.from,
        to: m.toAddress,
        subject: m.subject,
        text: m.textBody,
        ...(m.htmlBody ? { html: m.htmlBody } : {}),
        attachments: m.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
      await this.db
        .updateTable('emailOutbox')
        .set({ status: 'sent', sentAt: new Date(), lastError: null })
        .where('id', '=', m.id)
        .execute();
    } catch (err) {
      const giveUp = m.attempts >= MAX_ATTEMPTS;
      this.opts.log.warn(
        { err, mailId: m.id, attempts: m.attempts },
        giveUp ? 'email failed for good' : 'email failed, will retry',
      );
      await this.db
        .updateTable('emailOutbox')
        .set({
          status: giveUp ? 'failed' : 'pending',
          lastError: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500),
          nextAttemptAt: new Date(Date.now() + backoffMs(m.attempts)),
        })
        .where('id', '=', m.id)
        .execute();
    }
  }
}

/** Fails fast on a dead mail server instead of holding a flush for minutes. */
function withTimeouts(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  if (!u.searchParams.has('connectionTimeout')) u.searchParams.set('connectionTimeout', '10000');
  if (!u.searchParams.has('socketTimeout')) u.searchParams.set('socketTimeout', '20000');
  return u.toString();
}
