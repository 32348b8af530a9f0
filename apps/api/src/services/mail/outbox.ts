import type { DB, EmailAttachment, Kysely } from '@dn/db';
import {
  type ClaimedMail,
  claimDueMailIn,
  insertMail,
  MAIL_PRIORITY,
  markMailDone,
  markMailFailed,
  type NewMail,
  supersedeDeadLinks,
} from '@dn/db/queries/email-outbox';
import { suppressAddress, suppressBlockedMail } from '@dn/db/queries/email-preferences';
import { TOKEN_IN_TEXT } from '@dn/schema';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer } from '../../context';
import { type Dkim, isAddressRefused, isPermanentRefusal, smtpOptions, unsubscribeParts } from './delivery';
import { inert } from './render';

/**
 * The kinds of email whose words ask the recipient to reply (when REPLY_TO is set; see
 * templates.ts): they leave with that Reply-To, since MAIL_FROM is a no-reply address.
 */
export const REPLY_KINDS: ReadonlySet<string> = new Set(['rejection', 'suspension', 'job_received']);

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
  /**
   * A kind of mail the recipient can turn off (a digest, reminders): absent, the message is
   * transactional. A template opts in with one line, `category: 'digest'`: the message is then
   * bulk mail in the queue, leaves with List-Unsubscribe headers and an unsubscribe line, and is not
   * sent to an address that turned that category off (decision 0983).
   */
  category?: MailCategory;
}

/** The kinds of mail a recipient can turn off; add one here to give it its own switch. */
export type MailCategory = 'digest' | 'reminders';

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
    // Issue 45: a subject holds no link either (a company name typed as a URL), nor a line break.
    subject: inert(m.subject),
    textBody: m.text,
    htmlBody: m.html ?? null,
    attachments: m.attachments ?? [],
    dealerId: m.dealerId ?? null,
    tokenHash: m.tokenHash ?? null,
    ...(m.category ? { category: m.category, priority: MAIL_PRIORITY.bulk } : {}),
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
      /** Pooled SMTP connections, and messages sent at once (SMTP_MAX_CONNECTIONS; 5). */
      maxConnections?: number | undefined;
      /** The provider's rate, messages a second (SMTP_RATE_PER_SECOND); unset: no limit. */
      ratePerSecond?: number | undefined;
      /** DKIM signing of every message (DKIM_*). */
      dkim?: Dkim | undefined;
      /** The one-click unsubscribe link of a message of a category (services/mail/unsubscribe.ts). */
      unsubscribeUrl?: (address: string, category: string) => string;
    },
  ) {
    this.concurrency = opts.maxConnections ?? 5;
    this.transport = opts.smtpUrl
      ? nodemailer.createTransport(
          smtpOptions(withTimeouts(opts.smtpUrl), { ...opts, maxConnections: this.concurrency }),
        )
      : null;
  }

  /** Messages delivered at once: one per pooled connection. */
  private readonly concurrency: number;

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
    // (once a flush: each claimed batch is looked at again just before it leaves).
    await supersedeDeadLinks(this.db, TOKEN_IN_TEXT);
    for (;;) {
      // A claim a few messages per connection deep: a transactional message queued meanwhile
      // waits for this batch only, then leads the next claim (decision 0982).
      const { batch, blocked } = await this.claim(Math.max(10, this.concurrency * 4));
      if (batch.length === 0) return handled;
      // At most one message per connection at a time; one recipient's are never in one claim twice.
      const queue = batch.filter((m) => !blocked.has(m.id));
      const outcomes: Outcome[] = [];
      const worker = async () => {
        for (let m = queue.shift(); m; m = queue.shift()) outcomes.push(await this.deliver(m));
      };
      await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
      handled += batch.length;
      await this.mark(outcomes);
    }
  }

  /**
   * One transaction per claimed batch (issue 49, decision 1181): the claim (transactional first,
   * then oldest first) and the last look before the batch leaves: not sent at all to an address that
   * hard-bounced or of a category it turned off, nor a message whose link was retired or used since.
   */
  private async claim(limit: number): Promise<{ batch: ClaimedMail[]; blocked: Set<string> }> {
    const { batch, blocked, superseded } = await this.db.transaction().execute(async (trx) => {
      const batch = await claimDueMailIn(trx, limit, new Date(Date.now() - STALE_SENDING_MS));
      if (batch.length === 0) return { batch, blocked: new Set<string>(), superseded: [] };
      const ids = batch.map((m) => m.id);
      const blocked = new Set(await suppressBlockedMail(trx, ids, TOKEN_IN_TEXT));
      const linked = batch.filter((m) => m.tokenHash && !blocked.has(m.id)).map((m) => m.id);
      const superseded = await supersedeDeadLinks(trx, TOKEN_IN_TEXT, linked);
      for (const id of superseded) blocked.add(id);
      return { batch, blocked, superseded };
    });
    for (const id of superseded) {
      this.opts.log.info({ mailId: id }, 'email superseded: its link was retired before it left');
    }
    // seq is a bigint: a string from pg, a number or bigint from PGlite; BigInt compares each exactly.
    const bySeq = (a: ClaimedMail, b: ClaimedMail) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1);
    batch.sort((a, b) => a.priority - b.priority || bySeq(a, b));
    return { batch, blocked };
  }

  /** The batch's marks in one transaction (issue 49): sent, logged, failed or bounced. */
  private async mark(outcomes: readonly Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const ids = (status: 'sent' | 'logged') => outcomes.filter((o) => o.status === status).map((o) => o.id);
    await this.db.transaction().execute(async (trx) => {
      await markMailDone(trx, ids('sent'), 'sent', TOKEN_IN_TEXT);
      await markMailDone(trx, ids('logged'), 'logged', TOKEN_IN_TEXT);
      for (const o of outcomes) {
        if (o.status !== 'failed') continue;
        if (o.failure.bounced) await suppressAddress(trx, o.address, 'hard_bounce', o.failure.lastError);
        await markMailFailed(trx, o.id, o.failure, TOKEN_IN_TEXT);
      }
    });
  }

  /** Sends one message; what became of it, for the batch's marks. */
  private async deliver(m: ClaimedMail): Promise<Outcome> {
    if (!this.transport) {
      if (this.opts.logBodies) {
        this.opts.log.info(
          { mail: { to: m.toAddress, subject: m.subject, kind: m.kind }, text: m.textBody },
          'email (no SMTP_URL: logged, kept in the outbox)',
        );
      } else {
        this.opts.log.info({ mailId: m.id, kind: m.kind }, 'email kept (no SMTP_URL: not sent; body not logged)');
      }
      return { id: m.id, status: 'logged' };
    }
    try {
      // A category's message: List-Unsubscribe (RFC 8058) and an unsubscribe line in each part.
      const parts = unsubscribeParts(m, this.opts.unsubscribeUrl);
      await this.transport.sendMail({
        from: this.opts.from,
        // One Message-ID per outbox row: a message sent again after a crash between the server's
        // acceptance and our mark (the soak's database restart, decision 0970) is the same message
        // to the receiving side, which drops the copy.
        messageId: messageIdOf(m.id, this.opts.from),
        ...(this.opts.replyTo && REPLY_KINDS.has(m.kind) ? { replyTo: this.opts.replyTo } : {}),
        to: m.toAddress,
        subject: m.subject,
        text: parts.text,
        ...(parts.html ? { html: parts.html } : {}),
        ...(parts.headers ? { headers: parts.headers } : {}),
        attachments: m.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
          ...(a.encoding ? { encoding: a.encoding } : {}),
        })),
      });
      return { id: m.id, status: 'sent' };
    } catch (err) {
      // A 5xx refusal is final (no retry); one of the recipient is a hard bounce: not mailed again.
      const bounced = isAddressRefused(err);
      const giveUp = m.attempts >= MAX_ATTEMPTS || isPermanentRefusal(err);
      this.opts.log.warn(
        { err, mailId: m.id, attempts: m.attempts },
        bounced ? 'email bounced: address suppressed' : giveUp ? 'email failed for good' : 'email failed, will retry',
      );
      return {
        id: m.id,
        status: 'failed',
        address: m.toAddress,
        failure: {
          giveUp,
          bounced,
          lastError: errorText(err),
          nextAttemptAt: new Date(Date.now() + backoffMs(m.attempts)),
        },
      };
    }
  }
}

/** What became of one message of a batch (MailService.deliver). */
type Outcome =
  | { id: string; status: 'sent' | 'logged' }
  | {
      id: string;
      status: 'failed';
      address: string;
      failure: { giveUp: boolean; bounced: boolean; lastError: string; nextAttemptAt: Date };
    };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** Fails fast on a dead mail server instead of holding a flush for minutes. */
function withTimeouts(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  if (!u.searchParams.has('connectionTimeout')) u.searchParams.set('connectionTimeout', '10000');
  if (!u.searchParams.has('socketTimeout')) u.searchParams.set('socketTimeout', '20000');
  return u.toString();
}

/** The Message-ID of an outbox row: its id at the sender's domain (the From address's). */
export function messageIdOf(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${id}@${domain}>`;
}
