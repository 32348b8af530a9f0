import type { ClaimedMail } from '@dn/db/queries/email-outbox';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { escapeHtml } from './render';

/**
 * How the outbox's messages leave (issue 40; decisions 0982, 0983): the pooled SMTP transport's
 * options, DKIM, the unsubscribe parts of a category's message, and how a refusal is read.
 */

export interface Dkim {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * nodemailer's default signed headers plus List-Unsubscribe-Post: a one-click unsubscribe is only
 * honoured by the big providers when the signature covers both List-Unsubscribe headers.
 */
const DKIM_HEADERS = [
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding',
  'Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc',
  'Resent-Message-ID:In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post',
  'List-Subscribe:List-Post:List-Owner:List-Archive',
].join(':');

/** Pooled connections, at most `maxConnections`, at most `ratePerSecond` messages a second, signed. */
export function smtpOptions(
  url: string,
  o: { maxConnections: number; ratePerSecond?: number | undefined; dkim?: Dkim | undefined },
): SMTPPool.Options & { url: string } {
  return {
    url,
    pool: true,
    maxConnections: o.maxConnections,
    // A connection is kept for as many messages as the server takes (nodemailer's default reconnects every 100).
    maxMessages: Number.POSITIVE_INFINITY,
    ...(o.ratePerSecond ? { rateDelta: 1_000, rateLimit: o.ratePerSecond } : {}),
    ...(o.dkim ? { dkim: { ...o.dkim, headerFieldNames: DKIM_HEADERS } } : {}),
  };
}

/**
 * A message's bodies and headers as they leave. A category's message (a digest, reminders) gets
 * `List-Unsubscribe` with its one-click link and `List-Unsubscribe-Post` (RFC 8058), and a last
 * line in each part saying how to stop them; a transactional message leaves as it was stored.
 */
export function unsubscribeParts(
  m: Pick<ClaimedMail, 'toAddress' | 'category' | 'textBody' | 'htmlBody'>,
  unsubscribeUrl: ((address: string, category: string) => string) | undefined,
): { text: string; html: string | null; headers?: Record<string, string> } {
  if (!m.category || !unsubscribeUrl) return { text: m.textBody, html: m.htmlBody };
  const url = unsubscribeUrl(m.toAddress, m.category);
  const line = `You get these ${m.category} emails at ${m.toAddress}. To stop them:`;
  const text = `${m.textBody}\n\n--\n${line} ${url}`;
  const footer = `<hr><p><small>${escapeHtml(line)} <a href="${escapeHtml(url)}">unsubscribe</a></small></p>`;
  const html = m.htmlBody
    ? m.htmlBody.includes('</body>')
      ? m.htmlBody.replace('</body>', `${footer}</body>`)
      : `${m.htmlBody}${footer}`
    : null;
  return {
    text,
    html,
    headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
}

/** The server refused for good (a 5xx reply): retrying would be refused the same way. */
export function isPermanentRefusal(err: unknown): boolean {
  const code = (err as SmtpError | null)?.responseCode;
  const kind = (err as SmtpError | null)?.code;
  // Not a refusal of ours to fix by retrying, but neither one to blame on the recipient: a login
  // the server refused (EAUTH) is our configuration, and retried until it is fixed.
  return typeof code === 'number' && code >= 500 && code < 600 && kind !== 'EAUTH' && kind !== 'ECONNECTION';
}

/** The server refused the recipient itself (5xx at RCPT TO): a hard bounce. */
export function isAddressRefused(err: unknown): boolean {
  return isPermanentRefusal(err) && (err as SmtpError).code === 'EENVELOPE';
}
