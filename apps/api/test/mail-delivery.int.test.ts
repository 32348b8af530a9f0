import { generateKeyPairSync } from 'node:crypto';
import { insertAdminAction } from '@dn/db/queries/admin-actions';
import { insertActionMails, MAIL_PRIORITY } from '@dn/db/queries/email-outbox';
import { sql } from 'kysely';
import { dkimVerify } from 'mailauth';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, sha256 } from '../src/lib/tokens';
import { enqueueMail, type MailMessage, MailService, outboxRow } from '../src/services/mail/outbox';
import { render } from '../src/services/mail/render';
import { createDealer, createHarness, type Harness, uniqueEmail } from './helpers';
import { startSmtp, type TestSmtp } from './smtp';

/**
 * Issue 40: signed, well-formed mail that keeps up. DKIM that verifies, List-Unsubscribe with a
 * one-click unsubscribe that works signed out, hard bounces that stop later mail, and transactional
 * mail ahead of bulk mail.
 */

const DOMAIN = 'mail.dealers.test';
const SELECTOR = 'dn2026';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const BOUNCING = `gone.${Date.now().toString(36)}@example.com`;

let smtp: TestSmtp;
let h: Harness;
beforeAll(async () => {
  smtp = await startSmtp({ refuse: new Set([BOUNCING]) });
  h = await createHarness({
    config: {
      smtpUrl: smtp.url,
      mailFrom: `Dealer Network <no-reply@${DOMAIN}>`,
      dkim: {
        domainName: DOMAIN,
        keySelector: SELECTOR,
        privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    },
  });
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

const message = (to: string, subject: string, extra: Partial<MailMessage> = {}): MailMessage => ({
  kind: 'test',
  to,
  subject,
  ...render([`Hello ${to},`, 'Here is what happened this week.', { url: 'https://dealers.test/x', label: 'Open' }]),
  ...extra,
});
const queue = (m: MailMessage) => enqueueMail(h.db, m);
const statusOf = async (subject: string) =>
  (await h.db.selectFrom('emailOutbox').select('status').where('subject', '=', subject).executeTakeFirstOrThrow())
    .status;

describe('signed, well-formed mail', () => {
  it('is DKIM-signed and verifies against the public key; every HTML email has a text part', async () => {
    const to = uniqueEmail('dkim');
    await queue(message(to, 'Signed mail'));
    await h.app.deps.mail.flush();
    const got = await smtp.waitFor(to, /Signed mail/);
    expect(got.html).toContain('Here is what happened');
    expect(got.text).toContain('Here is what happened');
    expect(got.raw).toMatch(/^DKIM-Signature:/im);
    const resolver = async (name: string, type: string) => {
      if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[`v=DKIM1; k=rsa; p=${publicKey}`]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    };
    const result = await dkimVerify(Buffer.from(got.raw), { resolver });
    expect(result.results[0]?.status.result, JSON.stringify(result.results[0]?.status)).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe(DOMAIN);

    // A reset link through the app: a real transactional email, text and HTML.
    const dealer = await createDealer(h.db, { email: uniqueEmail('reset') });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/reset-password',
      payload: { email: dealer.email },
    });
    expect(res.statusCode).toBe(200);
    await h.app.deps.mail.flush();
    const reset = await smtp.waitFor(dealer.email);
    expect(reset.text.length).toBeGreaterThan(20);
    expect(reset.html).toContain('<a href=');
    expect(reset.headers['list-unsubscribe']).toBeUndefined();
    expect((await dkimVerify(Buffer.from(reset.raw), { resolver })).results[0]?.status.result).toBe('pass');
  });

  it('a digest carries one-click List-Unsubscribe; the link works signed out and stops digests only', async () => {
    const to = uniqueEmail('digest');
    await queue(message(to, 'Digest one', { category: 'digest' }));
    await h.app.deps.mail.flush();
    const got = await smtp.waitFor(to, /Digest one/);
    expect(got.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<(https:\/\/dealers\.test\/api\/email\/unsubscribe\?token=[^>]+)>$/.exec(
      got.headers['list-unsubscribe'] ?? '',
    )?.[1];
    expect(url).toBeDefined();
    expect(got.text).toContain(url);
    expect(got.html).toContain('unsubscribe');
    const path = (url ?? '').replace('https://dealers.test', '');

    // The page (a person's click, a scanner's prefetch) changes nothing; it shows a button.
    const page = await h.app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect(await h.db.selectFrom('emailPreferences').select('address').where('address', '=', to).execute()).toEqual([]);
    // A forged token is refused and changes nothing.
    const forged = await h.app.inject({
      method: 'POST',
      url: `${path.slice(0, -3)}xyz`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(400);

    // RFC 8058: the provider POSTs List-Unsubscribe=One-Click, with no cookie.
    const post = await h.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    const again = await h.app.inject({ method: 'POST', url: path, headers: { accept: 'text/html' } });
    expect(again.statusCode).toBe(200);

    await queue(message(to, 'Digest two', { category: 'digest' }));
    await queue(message(to, 'Reminder still on', { category: 'reminders' }));
    await queue(message(to, 'Reset link still on'));
    await h.app.deps.mail.flush();
    await smtp.waitFor(to, /Reset link still on/);
    await smtp.waitFor(to, /Reminder still on/);
    expect(smtp.received.some((m) => m.subject === 'Digest two')).toBe(false);
    expect(await statusOf('Digest two')).toBe('suppressed');
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('eventType', '=', 'email.unsubscribed')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('a 550 at RCPT TO marks the address bounced; later mail to it is not sent until a dealer gives it again', async () => {
    await queue(message(BOUNCING, 'Bounces once'));
    await h.app.deps.mail.flush();
    expect(await statusOf('Bounces once')).toBe('bounced');
    const suppression = await h.db
      .selectFrom('emailSuppressions')
      .select(['reason', 'detail'])
      .where('address', '=', BOUNCING)
      .executeTakeFirstOrThrow();
    expect(suppression.reason).toBe('hard_bounce');
    expect(suppression.detail).toMatch(/550/);
    const attempts = await h.db
      .selectFrom('emailOutbox')
      .select('attempts')
      .where('subject', '=', 'Bounces once')
      .executeTakeFirstOrThrow();
    expect(attempts.attempts).toBe(1);

    await queue(message(BOUNCING.toUpperCase(), 'Not sent again'));
    await h.app.deps.mail.flush();
    expect(await statusOf('Not sent again')).toBe('suppressed');

    // The dealer's email changes (to another address and back, re-entered): the address is tried again.
    const dealer = await createDealer(h.db, { email: uniqueEmail('moving') });
    await h.db.updateTable('dealers').set({ email: BOUNCING }).where('id', '=', dealer.id).execute();
    expect(
      await h.db.selectFrom('emailSuppressions').select('address').where('address', '=', BOUNCING).execute(),
    ).toEqual([]);
  });
});

describe('mail that keeps up', () => {
  it('sends over a few pooled connections, and a transactional email queued behind bulk ones goes first', async () => {
    const before = smtp.connections();
    const bulk = Array.from({ length: 120 }, (_, i) =>
      outboxRow(message(`bulk${i}.${Date.now()}@example.com`, `Decision ${i}`)),
    );
    // A bulk review's decisions: one action's many emails, queued as bulk mail (due at once here).
    const action = await insertAdminAction(h.db, {
      adminId: null,
      adminUsername: 'bulk-test',
      kind: 'approve',
      params: {},
      windowSec: 0,
      total: bulk.length,
    });
    await insertActionMails(h.db, action.id, new Date(Date.now() - 1_000), bulk);
    const priorities = await h.db
      .selectFrom('emailOutbox')
      .select('priority')
      .distinct()
      .where('subject', 'like', 'Decision %')
      .execute();
    expect(priorities).toEqual([{ priority: MAIL_PRIORITY.bulk }]);
    const to = uniqueEmail('urgent');
    await queue(message(to, 'Your reset link'));
    const received = smtp.received.length;
    await h.app.deps.mail.flush();
    const order = smtp.received.slice(received).map((m) => m.subject);
    expect(order).toHaveLength(121);
    expect(order.indexOf('Your reset link')).toBeLessThan(5);
    expect(smtp.connections() - before).toBeLessThanOrEqual(5);
  });
});

describe('the last look before a batch leaves', () => {
  it('a link retired while the batch before it is sending is not sent', async () => {
    // Only this test's sender claims its messages: the app's own, kicked by the tests above, first
    // sends what it still has (nothing older is left to fill the first claim) and is stopped (on a
    // loaded machine it could still be flushing and take them).
    await h.app.deps.mail.flush();
    await h.app.deps.mail.stop();
    const dealer = await createDealer(h.db, { email: uniqueEmail('late-link') });
    const token = randomToken();
    await h.db
      .insertInto('magicLinkTokens')
      .values({
        token: sha256(token),
        dealerId: dealer.id,
        purpose: 'reset',
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .execute();
    let retired = false;
    // While the first batch (20: 5 connections, 4 each) is being accepted, the link is used elsewhere.
    const slow = await startSmtp({
      beforeAccept: async () => {
        if (retired) return;
        retired = true;
        await h.db.updateTable('magicLinkTokens').set({ used: true }).where('token', '=', sha256(token)).execute();
      },
    });
    const mail = new MailService(h.db, {
      smtpUrl: slow.url,
      from: 'Test <t@test.local>',
      log: pino({ level: 'silent' }),
    });
    try {
      for (let i = 0; i < 20; i++) await queue(message(`first.${i}.${Date.now()}@example.com`, `First batch ${i}`));
      // The first batch was queued before the link, and the claim takes them in queue order (`seq`,
      // migration 4400): a timestamp tie on PGlite (millisecond precision) no longer decides it.
      await queue(
        message(dealer.email, 'Late link', {
          tokenHash: sha256(token),
          text: `Reset: https://dealers.test/reset?token=${token}`,
        }),
      );
      // Exactly the first batch fills the first claim (20: 5 connections, 4 each), the link the next.
      const due = await h.db
        .selectFrom('emailOutbox')
        .select('subject')
        .where('status', '=', 'pending')
        .where('nextAttemptAt', '<=', new Date())
        .orderBy('priority')
        .orderBy('seq')
        .execute();
      expect(due.map((m) => m.subject).indexOf('Late link')).toBe(20);
      await mail.flush();
      expect(retired).toBe(true);
      expect(slow.received.filter((m) => m.subject.startsWith('First batch'))).toHaveLength(20);
      expect(slow.received.some((m) => m.subject === 'Late link')).toBe(false);
      expect(await statusOf('Late link')).toBe('superseded');
    } finally {
      await mail.stop();
      await slow.close();
    }
  });
});

describe('queue order', () => {
  it("one recipient's emails leave in the order they were queued, even when their timestamps tie or cross", async () => {
    // PGlite keeps clock_timestamp() to the millisecond: two emails queued in one millisecond had the
    // same created_at, and the random id decided which left first. Here the second is made to look
    // older than the first (a tie would be decided the same way): the order still follows the queue.
    const to = uniqueEmail('order');
    // Only this test's sender claims (the app's own, if still running, sends what it has and stops).
    await h.app.deps.mail.flush();
    await h.app.deps.mail.stop();
    const mail = new MailService(h.db, {
      smtpUrl: smtp.url,
      from: 'Test <t@test.local>',
      log: pino({ level: 'silent' }),
    });
    await queue(message(to, 'Order first'));
    await queue(message(to, 'Order second'));
    await h.db
      .updateTable('emailOutbox')
      .set({ createdAt: sql`created_at - interval '1 second'` })
      .where('subject', '=', 'Order second')
      .execute();
    const received = smtp.received.length;
    try {
      await mail.flush();
      await mail.flush();
    } finally {
      await mail.stop();
    }
    const mine = smtp.received.slice(received).filter((m) => m.to.includes(to.toLowerCase()));
    expect(mine.map((m) => m.subject)).toEqual(['Order first', 'Order second']);
  });
});
