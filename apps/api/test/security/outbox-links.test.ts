import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import type { Config } from '../../src/env';
import { sha256 } from '../../src/lib/tokens';
import { ensureAdmin } from '../../src/services/accounts/admins';
import { createDealer, GENEROUS_LIMITS, signInAdmin, type TestApp, testConfig, uniqueEmail } from '../helpers';
import { startSmtp } from '../smtp';
import { application } from './support';
import { limit } from './time';

/**
 * Issue 12: links that arrive in the right order, and no live secret at rest. A real SMTP
 * receiver; the app's log captured as it is written.
 */

let database: TestDatabase;
const apps: TestApp[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => undefined);
  for (const a of apps) await a.deps.mail.stop().catch(() => undefined);
  for (const c of closers) await c().catch(() => undefined);
  await database?.close();
});

async function appWith(config: Partial<Config>, lines?: string[]): Promise<TestApp> {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines?.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const a = (await buildApp({
    config: testConfig({ logLevel: 'debug', ...config }),
    database,
    limits: GENEROUS_LIMITS,
    logger: { stream },
  })) as TestApp;
  await a.ready();
  apps.push(a);
  return a;
}

/** Every one-time link's token (43 base64url characters) in a text. */
const tokensIn = (text: string) => [...text.matchAll(/token=([A-Za-z0-9_-]{43})/g)].map((m) => m[1] as string);
const setup = (a: TestApp, token: string) =>
  a.inject({
    method: 'POST',
    url: '/api/dealer/setup-password',
    payload: { token, password: 'outbox-links-pass-1', confirmPassword: 'outbox-links-pass-1' },
  });

describe('outbox order and superseded links', () => {
  // The admin's second click after Approve: Send Approval Email (admin.sendApprovalEmail) is the
  // issue's path; Reset Password (admin.resetPassword) sends the other kind of link and must
  // supersede the held approval email just the same.
  const secondClicks = [
    { label: 'Send Approval Email', path: 'send-approval-email', kind: 'approval' },
    { label: 'Reset Password', path: 'reset-password', kind: 'password_reset' },
  ] as const;

  for (const second of secondClicks) {
    it(
      `approve, then ${second.label}, 20 times: the last email delivered holds the one working link`,
      async () => {
        const smtp = await startSmtp();
        closers.push(() => smtp.close());
        // An undo window holds the approval email, as in production.
        const a = await appWith({ smtpUrl: smtp.url, undoWindowSec: 60 });
        const admin = await signInAdmin(a, `order-reviewer-${second.path}`);
        for (let i = 0; i < 20; i++) {
          const d = await createDealer(a.deps.db, { status: 'pending', password: null });
          const approve = await a.inject({
            method: 'POST',
            url: `/api/admin/dealers/${d.id}/approve`,
            headers: { cookie: admin },
          });
          expect(approve.statusCode, approve.body).toBe(200);
          const send = await a.inject({
            method: 'POST',
            url: `/api/admin/dealers/${d.id}/${second.path}`,
            headers: { cookie: admin },
          });
          expect(send.statusCode, send.body).toBe(200);
          await a.deps.mail.flush();
          // The undo window ends: whatever the outbox still holds for the dealer is due now.
          await a.deps.db
            .updateTable('emailOutbox')
            .set({ nextAttemptAt: new Date() })
            .where('dealerId', '=', d.id)
            .where('status', '=', 'pending')
            .execute();
          await a.deps.mail.flush();

          // One live link for the dealer, and it is in the last email delivered.
          const live = await a.deps.db
            .selectFrom('magicLinkTokens')
            .select('token')
            .where('dealerId', '=', d.id)
            .where('used', '=', false)
            .where('expiresAt', '>', new Date())
            .execute();
          expect(live, `try ${i}`).toHaveLength(1);
          const mails = smtp.received.filter((m) => m.to.includes(d.email.toLowerCase()));
          expect(mails.length, `try ${i}`).toBeGreaterThan(0);
          const last = tokensIn(mails.at(-1)?.text ?? '');
          expect(last, `try ${i}`).toHaveLength(1);
          expect(live[0]?.token, `try ${i}`).toBe(sha256(last[0] as string));
          // Every earlier link is dead; the last one works.
          for (const m of mails.slice(0, -1)) {
            for (const t of tokensIn(m.text)) expect((await setup(a, t)).statusCode, `try ${i}`).not.toBe(200);
          }
          const res = await setup(a, last[0] as string);
          expect(res.statusCode, `try ${i}: ${res.body}`).toBe(200);
          // In the outbox: the approval held by the undo window was superseded, never sent; the
          // second click's email is the one that left.
          const rows = await a.deps.db
            .selectFrom('emailOutbox')
            .select(['kind', 'status'])
            .where('dealerId', '=', d.id)
            .where('kind', 'in', ['approval', 'password_reset'])
            .orderBy('seq')
            .execute();
          expect(rows, `try ${i}`).toEqual([
            { kind: 'approval', status: 'superseded' },
            { kind: second.kind, status: 'sent' },
          ]);
          expect(mails, `try ${i}`).toHaveLength(1);
        }
      },
      limit(120_000),
    );
  }
});

describe('no live secret at rest', () => {
  it(
    'after signup, approval, set password and reset, no token is in the log or any email_outbox row',
    async () => {
      const smtp = await startSmtp();
      closers.push(() => smtp.close());
      const lines: string[] = [];
      const a = await appWith({ smtpUrl: smtp.url }, lines);
      const admin = await signInAdmin(a, 'rest-reviewer');
      const email = uniqueEmail('atrest');

      const signup = await a.inject({ method: 'POST', url: '/api/dealer-signup', payload: application(email) });
      expect(signup.statusCode, signup.body).toBeLessThan(300);
      await a.deps.mail.flush();
      const dealer = await a.deps.db
        .selectFrom('dealers')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const approve = await a.inject({
        method: 'POST',
        url: `/api/admin/dealers/${dealer.id}/approve`,
        headers: { cookie: admin },
      });
      expect(approve.statusCode, approve.body).toBe(200);
      await a.deps.mail.flush();
      const approval = await smtp.waitFor(email, /approved/i);
      const [setupToken] = tokensIn(approval.text);
      expect(setupToken).toBeDefined();
      expect((await setup(a, setupToken as string)).statusCode).toBe(200);
      await a.inject({ url: `/login?token=${setupToken}` });

      const reset = await a.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: { email } });
      expect(reset.statusCode, reset.body).toBe(200);
      await a.deps.mail.flush();
      const resetMail = await smtp.waitFor(email, /reset/i);
      const [resetToken] = tokensIn(resetMail.text);
      expect(resetToken).toBeDefined();

      // Every secret the emails carried: the links, and the private application-status link.
      const secrets = smtp.received
        .filter((m) => m.to.includes(email))
        .flatMap((m) => [...m.text.matchAll(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g)].map((x) => x[0]));
      expect(secrets).toContain(setupToken);
      expect(secrets).toContain(resetToken);

      const rows = await a.deps.db
        .selectFrom('emailOutbox')
        .select(['subject', 'textBody', 'htmlBody', 'status', 'tokenHash'])
        .where('toAddress', '=', email)
        .execute();
      expect(rows.length).toBeGreaterThanOrEqual(3);
      const stored = JSON.stringify(rows);
      const logged = lines.join('\n');
      for (const s of secrets) {
        expect(stored).not.toContain(s);
        expect(logged).not.toContain(s);
      }
      // The timeline still reads what was sent.
      expect(rows.map((r) => r.subject).join('\n')).toMatch(/reset/i);
    },
    limit(60_000),
  );

  it(
    'in production without SMTP_URL the log says an email was kept, never its link or body',
    async () => {
      const lines: string[] = [];
      const a = await appWith({ nodeEnv: 'production', smtpUrl: undefined }, lines);
      const d = await createDealer(a.deps.db, { status: 'approved', password: 'prod-pass-12345' });
      const reset = await a.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: { email: d.email } });
      expect(reset.statusCode, reset.body).toBe(200);
      await a.deps.mail.flush();
      const logged = lines.join('\n');
      expect(logged).toContain('email kept');
      expect(logged).not.toMatch(/token=/);
      expect(logged).not.toMatch(/reset your password/i);
      const rows = await a.deps.db
        .selectFrom('emailOutbox')
        .select(['textBody', 'status'])
        .where('toAddress', '=', d.email)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe('logged');
      expect(rows[0]?.textBody).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
    },
    limit(60_000),
  );
});

describe('admin bootstrap', () => {
  it('ADMIN_PASSWORD creates the admin once and never overwrites an existing password', async () => {
    const username = `boot-${Date.now().toString(36)}`;
    expect((await ensureAdmin(database.db, { username, password: 'first-password-1' })).action).toBe('created');
    expect((await ensureAdmin(database.db, { username, password: 'second-password-2' })).action).toBe('kept');
    const a = await appWith({});
    const login = (password: string) =>
      a.inject({ method: 'POST', url: '/api/admin/login', payload: { username, password } });
    expect((await login('first-password-1')).statusCode).toBe(200);
    expect((await login('second-password-2')).statusCode).toBe(401);
  });
});
