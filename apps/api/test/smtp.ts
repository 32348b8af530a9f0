import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The Reply-To address, when the message has one. */
  replyTo: string | undefined;
  text: string;
  html: string;
  attachments: { filename?: string; contentType: string; content: string }[];
  /** The message as it arrived, headers and all (for a DKIM check). */
  raw: string;
  /** Its headers, by lower-cased name (the last of each). */
  headers: Record<string, string>;
}

export interface SmtpOptions {
  /** Recipients refused at RCPT TO with this server's 550 (a hard bounce). */
  refuse?: ReadonlySet<string>;
  /** Runs before a message is accepted (the sender waits for it): a test's step between two sends. */
  beforeAccept?: (to: string[]) => Promise<void>;
}

/** A real SMTP server that keeps what it receives, for email tests. */
export async function startSmtp(opts: SmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  let connections = 0;
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (!opts.refuse?.has(address.address.toLowerCase())) return callback();
      const err = Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 });
      callback(err);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      new Promise<Buffer>((resolve, reject) => {
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      })
        .then(async (raw) => ({ raw, m: await simpleParser(raw) }))
        .then(({ raw, m }: { raw: Buffer; m: ParsedMail }) => {
          const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) =>
            a.value.map((v) => v.address ?? ''),
          );
          received.push({
            to,
            subject: m.subject ?? '',
            replyTo: m.replyTo?.value[0]?.address,
            text: m.text ?? '',
            html: typeof m.html === 'string' ? m.html : '',
            attachments: m.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: a.content.toString('utf8'),
            })),
            raw: raw.toString('utf8'),
            headers: Object.fromEntries(
              m.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]),
            ),
          });
          for (const w of waiters.splice(0)) w();
          return opts.beforeAccept?.(received.at(-1)?.to ?? []);
        })
        .then(() => callback())
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** How many connections the server has accepted (pooled senders reuse theirs). */
    connections: () => connections,
    /** Resolves with the first message to `to` matching `subject`, waiting up to `ms`. */
    async waitFor(to: string, subject?: RegExp, ms = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = received.find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} matching ${subject} within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, Math.min(left, 200));
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;
