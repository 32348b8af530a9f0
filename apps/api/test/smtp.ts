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
}

/** A real SMTP server that keeps what it receives, for email tests. */
export async function startSmtp() {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((m: ParsedMail) => {
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
          });
          for (const w of waiters.splice(0)) w();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
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
