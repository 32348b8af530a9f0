import type { DB, EmailAttachment, Kysely } from '@dn/db';
import {
  type ClaimedMail,
  claimDueMail,
  insertMail,
  markMailDone,
  markMailFailed,
  type NewMail,
  supersedeDeadLinks,
} from '@dn/db/queries/email-outbox';
import { TOKEN_IN_TEXT } from '@dn/schema';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer } from '../../context';

/**
 * The kinds of email whose words ask the recipient to reply (when REPLY_TO is set; see
 * templates.ts): they leave with that Reply-To, since MAIL_FROM is a no-reply address.
 */
export const REPLY_KINDS: ReadonlySet<string> = new Set(['rejection', 'suspension']);

export interface MailMessage {
  /** What the message is, for the dealer's timeline: 'approval', 'password_reset', ... */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: EmailAttachment[];
  dealerId?: string | null;
  /**
   * The SHA-256 of the one-time link it carries (never the link): if that link is retired, used
   * or expired before the message leaves, it is marked 'superseded' and not sent.
   */
  tokenHash?: string | null;
}

const MAX_ATTEMPTS = 12;
/** A message claimed by a process that died mid-send goes back to the queue after this. */
const STALE_SENDING_MS = 5 * 60_000;

/**
 * Writes a message to the outbox inside the caller's transaction: it is sent only if the
 * change that caused it commits, and it is never lost if sending fails.
 */
export async function enqueueMail(db: Kysely<DB>, m: MailMessage): Promise<string> {
  return insertMail(db, outboxRow(m));
}

/** A rendered message as the outbox stores it. */
export function outboxRow(m: MailMessage): NewMail {
  return {
    kind: m.kind,
    toAddress: m.to,
    subject: m.subject,
    textBody: m.text,
    htmlBody: m.html ?? null,
    attachments: m.attachments ?? [],
    dealerId: m.dealerId ?? null,
    tokenHash: m.tokenHash ?? null,
  };
}

export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 2 ** attempts * 15_000);
}

/**
 * Delivers the outbox. With SMTP_URL through nodemailer; without it each message is logged
 * and marked 'logged': with its body (and links) only when `logBodies` (development and tests),
 * in production only the fact that an email was kept (kind, id), never its link or body.
 *
 * Order and supersession (issue 12): one recipient's messages leave in the order they were
 * queued (claimDueMail), and a message whose one-time link died before it left is marked
 * 'superseded' instead of sent. Once a message leaves (or is logged, or fails for good) its
 * stored bodies lose their one-time links; a message still waiting keeps its link until then.
 */
export class MailService implements Mailer {
  private transport: Transporter | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: {
      smtpUrl: string | undefined;
      from: string;
      /** Reply-To of the kinds of email that ask for a reply (REPLY_KINDS). */
      replyTo?: string | undefined;
      log: FastifyBaseLogger;
      logBodies?: boolean;
    },
  ) {
    this.transport = opts.smtpUrl ? nodemailer.createTransport(withTimeouts(opts.smtpUrl)) : null;
  }

  /** Sends what is due now, without waiting; failures stay queued. */
  kick(): void {
    void this.flush().catch((err) => this.opts.log.warn({ err }, 'mail flush failed'));
  }

  /**
   * Sends every due message; resolves with how many were handled. One flush at a time per process.
   * Asked while one runs, it resolves after one more pass: the running one may already have
   * looked past a message committed just now.
   */
  flush(): Promise<number> {
    if (!this.running) {
      this.running = this.flushOnce().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.again ??= this.running
      .catch(() => 0)
      .then(() => {
        this.again = null;
        return this.flush();
      });
    return this.again;
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
    // A waiting message whose link died does not hold the newer ones to its recipient back
    // (once a flush: each message is looked at again just before it leaves).
    await supersedeDeadLinks(this.db, TOKEN_IN_TEXT);
    for (;;) {
      const batch = await this.claim(10);
      if (batch.length === 0) return handled;
      // Without a mail server a message is only logged: the batch is marked in one statement.
      const logged: string[] = [];
      for (const m of batch) {
        if (await this.deliver(m)) logged.push(m.id);
        handled++;
      }
      await markMailDone(this.db, logged, 'logged', TOKEN_IN_TEXT);
    }
  }

  private claim(limit: number) {
    return claimDueMail(this.db, limit, new Date(Date.now() - STALE_SENDING_MS));
  }

  /** Sends one message; true when it was only logged (no mail server), for the caller to mark. */
  private async deliver(m: ClaimedMail): Promise<boolean> {
    // The last look before it leaves: a link retired or used since the claim is not sent.
    if (m.tokenHash && (await supersedeDeadLinks(this.db, TOKEN_IN_TEXT, m.id)) > 0) {
      this.opts.log.info({ mailId: m.id, kind: m.kind }, 'email superseded: its link was retired before it left');
      return false;
    }
    if (!this.transport) {
      if (this.opts.logBodies) {
        this.opts.log.info(
          { mail: { to: m.toAddress, subject: m.subject, kind: m.kind }, text: m.textBody },
          'email (no SMTP_URL: logged, kept in the outbox)',
        );
      } else {
        this.opts.log.info({ mailId: m.id, kind: m.kind }, 'email kept (no SMTP_URL: not sent; body not logged)');
      }
      return true;
    }
    try {
      await this.transport.sendMail({
        from: this.opts.from,
        ...(this.opts.replyTo && REPLY_KINDS.has(m.kind) ? { replyTo: this.opts.replyTo } : {}),
        to: m.toAddress,
        subject: m.subject,
        text: m.textBody,
        ...(m.htmlBody ? { html: m.htmlBody } : {}),
        attachments: m.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
          ...(a.encoding ? { encoding: a.encoding } : {}),
        })),
      });
      await markMailDone(this.db, m.id, 'sent', TOKEN_IN_TEXT);
    } catch (err) {
      const giveUp = m.attempts >= MAX_ATTEMPTS;
      this.opts.log.warn(
        { err, mailId: m.id, attempts: m.attempts },
        giveUp ? 'email failed for good' : 'email failed, will retry',
      );
      await markMailFailed(
        this.db,
        m.id,
        {
          giveUp,
          lastError: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500),
          nextAttemptAt: new Date(Date.now() + backoffMs(m.attempts)),
        },
        TOKEN_IN_TEXT,
      );
    }
    return false;
  }
}

/** Fails fast on a dead mail server instead of holding a flush for minutes. */
function withTimeouts(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  if (!u.searchParams.has('connectionTimeout')) u.searchParams.set('connectionTimeout', '10000');
  if (!u.searchParams.has('socketTimeout')) u.searchParams.set('socketTimeout', '20000');
  return u.toString();
}
