import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Waits for a message the real SMTP server of global-setup received. */
export async function waitForMail(to: string, subject?: RegExp, timeoutMs = 20_000): Promise<Mail> {
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
