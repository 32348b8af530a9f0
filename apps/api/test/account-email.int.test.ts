import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_ANSWER } from '../src/services/accounts/passwords';
import {
  cookieOf,
  createDealer,
  createHarness,
  type Harness,
  mailHarnessForFile,
  setupPassword,
  signInAdmin,
  signInDealer,
  uniqueEmail,
} from './helpers';

const h = mailHarnessForFile();

const PUBLIC_URL = 'https://dealers.test';

function tokenIn(text: string): string {
  const m = text.match(/https:\/\/dealers\.test\/login\?token=([A-Za-z0-9_-]{43})/);
  if (!m) throw new Error(`no set-password link in: ${text}`);
  return m[1]!;
}

const reset = (email: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: { email }, headers });

const outboxCount = async (to: string) =>
  Number(
    (
      await h.db
        .selectFrom('emailOutbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('toAddress', '=', to)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('approval email', () => {
  it('arrives by SMTP with a PUBLIC_URL link that sets the password and signs the dealer in', async () => {
    const d = await createDealer(h.db, { password: null, fullName: 'Pat Approved', tier: 'Authorized' });
    // The admin's Send Approval Email (an approved dealer who never got a link): the one approval.
    const sent = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${d.id}/send-approval-email`,
      headers: { cookie: await signInAdmin(h.app) },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /approved/);
    expect(mail.subject).toBe('Your dealer application is approved: set up your password');
    expect(mail.text).toContain('Hello Pat Approved');
    expect(mail.text).toContain('Authorized dealer');
    expect(mail.text).toContain('expires in 72 hours');
    expect(mail.text).toContain(`${PUBLIC_URL}/login`);
    expect(mail.text).toMatch(/Forgot password\?/);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/login?token=`);
    const token = tokenIn(mail.text);

    const res = await setupPassword(h.app, { token, password: 'pat-password' });
    expect(res.statusCode).toBe(200);
    const info = await h.app.inject({ url: '/api/dealer/info', headers: { cookie: cookieOf(res) } });
    expect(info.json()).toMatchObject({ email: d.email, accessGranted: true, tier: 'Authorized' });
    // Issue 47: the first password is no change, so no "your password was changed" notice follows.
    expect(mail.text).toContain('Book your onboarding call there too');
    expect(mail.text).not.toContain('We will also contact you');
    await h.app.deps.mail.flush();
    const kinds = await h.db.selectFrom('emailOutbox').select('kind').where('dealerId', '=', d.id).execute();
    expect(kinds.map((k) => k.kind)).not.toContain('password_changed');
    expect(
      h.smtp.received.filter((m) => m.to.includes(d.email.toLowerCase())).map((m) => m.subject),
    ).not.toContainEqual(expect.stringMatching(/password was changed/));
    await signInDealer(h.app, d.email, 'pat-password');
  });
});

describe('POST /api/dealer/reset-password', () => {
  it('answers unknown and known addresses identically', async () => {
    const d = await createDealer(h.db);
    const known = await reset(d.email);
    const unknown = await reset(uniqueEmail('ghost'));
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ ok: true, message: RESET_ANSWER });
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('emails a 1-hour reset link built from PUBLIC_URL, whatever the Host header says, and the link works', async () => {
    const d = await createDealer(h.db, { fullName: 'Rita Reset' });
    const res = await reset(d.email.toUpperCase(), { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(res.statusCode).toBe(200);
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /Reset your dealer account password/);
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.text + mail.html).not.toContain('evil.example');
    const token = tokenIn(mail.text);
    const set = await setupPassword(h.app, { token, password: 'rita-new-password' });
    expect(set.statusCode).toBe(200);
    await signInDealer(h.app, d.email, 'rita-new-password');
    const old = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      payload: { username: d.email, password: d.password },
    });
    expect(old.statusCode).toBe(401);
  });

  it('sends an approved dealer who never set a password a fresh 72-hour set-up link', async () => {
    const d = await createDealer(h.db, { password: null });
    expect((await reset(d.email)).statusCode).toBe(200);
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /new link to set up/);
    expect(mail.text).toContain('expires in 72 hours');
    tokenIn(mail.text);
  });

  it.each(['pending', 'rejected', 'inactive', 'suspended'] as const)(
    'sends nothing to a %s dealer, with the same answer',
    async (status) => {
      const d = await createDealer(h.db, { status });
      const res = await reset(d.email);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(RESET_ANSWER);
      expect(await outboxCount(d.email)).toBe(0);
      const tokens = await h.db.selectFrom('magicLinkTokens').select('id').where('dealerId', '=', d.id).execute();
      expect(tokens).toHaveLength(0);
    },
  );

  it('refuses an invalid email in the schema words', async () => {
    const res = await reset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Valid email is required');
    const none = await h.app.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: {} });
    expect(none.statusCode).toBe(400);
  });
});

describe('reset rate limits', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({
      database: h.database,
      limits: { resetPerAccount: { max: 2, windowSec: 3600 }, resetPerIp: { max: 4, windowSec: 3600 } },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });
  const ask = (email: string, ip: string) =>
    limited.app.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: { email }, remoteAddress: ip });

  it('limits per address (known or not) and per IP with 429, a retry message and Retry-After, until the window resets', async () => {
    for (const email of [uniqueEmail('ghost'), (await createDealer(h.db)).email]) {
      expect((await ask(email, '10.0.0.1')).statusCode).toBe(200);
      expect((await ask(email, '10.0.0.2')).statusCode).toBe(200);
      const refused = await ask(email, '10.0.0.3');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe('Too many attempts. Please try again in 60 minutes.');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    }
    for (let i = 0; i < 4; i++) expect((await ask(uniqueEmail('ip'), '10.0.0.9')).statusCode).toBe(200);
    const perIp = await ask(uniqueEmail('ip'), '10.0.0.9');
    expect(perIp.statusCode).toBe(429);
    await h.db
      .updateTable('rateLimits')
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where('key', '=', 'reset:ip:10.0.0.9')
      .execute();
    expect((await ask(uniqueEmail('ip'), '10.0.0.9')).statusCode).toBe(200);
  });
});
