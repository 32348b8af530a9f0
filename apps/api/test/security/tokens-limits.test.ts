import { sql } from '@dn/db';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import { EXPIRED_LINK, INVALID_LINK } from '@dn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { DEFAULT_LIMITS, type RateLimits } from '../../src/services/accounts/rate-limit';
import { consumeToken, issueToken } from '../../src/services/accounts/tokens';
import { createDealer, GENEROUS_LIMITS, type TestApp, testConfig, uniqueEmail } from '../helpers';

/** One-time link tokens under attack, and sign-in brute force across restarts and instances. */

let database: TestDatabase;
const apps: TestApp[] = [];

async function app(opts: { limits?: Partial<RateLimits>; trustProxy?: string } = {}): Promise<TestApp> {
  const a = (await buildApp({
    config: testConfig({ trustProxy: opts.trustProxy }),
    database,
    limits: { ...GENEROUS_LIMITS, ...opts.limits },
    logger: false,
  })) as TestApp;
  await a.ready();
  apps.push(a);
  return a;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => undefined);
  for (const a of apps) await a.deps.mail.stop().catch(() => undefined);
  await database?.close();
});

const setup = (a: TestApp, token: string, password = 'token-attack-pass-1') =>
  a.inject({
    method: 'POST',
    url: '/api/dealer/setup-password',
    payload: { token, password, confirmPassword: password },
  });

describe('token attacks', () => {
  it('a token works once: a replay is refused and the first password stands', async () => {
    const a = await app();
    const d = await createDealer(database.db, { password: null });
    const token = await issueToken(database.db, d.id, 'setup');
    expect((await setup(a, token, 'first-password-1')).statusCode).toBe(200);
    const replay = await setup(a, token, 'second-password-1');
    expect(replay.statusCode).toBe(410);
    expect(replay.json().message).toBe(EXPIRED_LINK);
    const login = (password: string) =>
      a.inject({ method: 'POST', url: '/api/dealer/login', payload: { username: d.email, password } });
    expect((await login('first-password-1')).statusCode).toBe(200);
    expect((await login('second-password-1')).statusCode).toBe(401);
  });

  it('20 concurrent uses of one token: exactly one succeeds', async () => {
    const a = await app();
    const d = await createDealer(database.db, { password: null });
    const token = await issueToken(database.db, d.id, 'setup');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => setup(a, token, `concurrent-pass-${i}`)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    for (const c of codes) expect([200, 410]).toContain(c);
    const sessions = await sql<{
      n: string;
    }>`select count(*)::text as n from sessions where sess->>'userId' = ${d.id}`.execute(database.db);
    expect(Number(sessions.rows[0]?.n)).toBe(1);
  });

  it('an expired token is refused', async () => {
    const a = await app();
    const d = await createDealer(database.db, { password: null });
    const token = await issueToken(database.db, d.id, 'setup');
    await database.db
      .updateTable('magicLinkTokens')
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where('dealerId', '=', d.id)
      .execute();
    const res = await setup(a, token);
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toBe(EXPIRED_LINK);
  });

  it('a newer link supersedes an older one of the same purpose', async () => {
    const a = await app();
    const d = await createDealer(database.db);
    const older = await issueToken(database.db, d.id, 'reset');
    const newer = await issueToken(database.db, d.id, 'reset');
    expect((await setup(a, older)).statusCode).toBe(410);
    expect((await setup(a, newer)).statusCode).toBe(200);
  });

  it('a token of one purpose is not accepted for another; invented and malformed tokens are refused', async () => {
    const a = await app();
    const d = await createDealer(database.db);
    const reset = await issueToken(database.db, d.id, 'reset');
    await expect(consumeToken(database.db, reset, 'setup')).rejects.toMatchObject({ message: INVALID_LINK });
    // Still usable for its own purpose after the mix-up was refused.
    await expect(consumeToken(database.db, reset, 'reset')).resolves.toMatchObject({ dealerId: d.id });
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(5_000), "' or 1=1 --"]) {
      const res = await setup(a, token);
      expect(res.statusCode, token.slice(0, 10)).toBe(400);
    }
  });

  it('reset emails link to PUBLIC_URL whatever Host or X-Forwarded-Host say', async () => {
    for (const trustProxy of [undefined, '127.0.0.1']) {
      const a = await app({ trustProxy });
      const d = await createDealer(database.db);
      const res = await a.inject({
        method: 'POST',
        url: '/api/dealer/reset-password',
        headers: {
          host: 'evil.example',
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'http',
          forwarded: 'host=evil.example',
        },
        payload: { email: d.email },
      });
      expect(res.statusCode).toBe(200);
      const mails = await database.db
        .selectFrom('emailOutbox')
        .select(['textBody', 'htmlBody'])
        .where('toAddress', '=', d.email)
        .execute();
      expect(mails).toHaveLength(1);
      const body = `${mails[0]?.textBody} ${mails[0]?.htmlBody}`;
      expect(body).toContain('https://dealers.test/login?token=');
      expect(body).not.toContain('evil');
    }
  });
});

describe('account enumeration', () => {
  it('sign-in and reset answer alike for unknown addresses, wrong passwords and known addresses', async () => {
    const a = await app();
    const d = await createDealer(database.db);
    const signIn = (username: string) =>
      a.inject({ method: 'POST', url: '/api/dealer/login', payload: { username, password: 'not-the-password' } });
    const unknown = await signIn(uniqueEmail('nobody'));
    const wrong = await signIn(d.email);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    // A pending applicant's status is told only to someone who knows the password.
    const pending = await createDealer(database.db, { status: 'pending' });
    expect((await signIn(pending.email)).json()).toEqual(wrong.json());
    const reset = (email: string) =>
      a.inject({ method: 'POST', url: '/api/dealer/reset-password', payload: { email } });
    const known = await reset(d.email);
    const nobody = await reset(uniqueEmail('nobody'));
    expect(known.statusCode).toBe(nobody.statusCode);
    expect(known.json()).toEqual(nobody.json());
  });
});

describe('brute force', () => {
  const tight: Partial<RateLimits> = {
    loginPerAccount: DEFAULT_LIMITS.loginPerAccount,
    loginPerIp: { max: 12, windowSec: 15 * 60 },
  };
  const login = (a: TestApp, username: string, password: string, remoteAddress = '10.9.8.7', headers = {}) =>
    a.inject({ method: 'POST', url: '/api/dealer/login', remoteAddress, headers, payload: { username, password } });

  it('per account: after 5 failures even the right password is refused, across a restart and on a second instance', async () => {
    const first = await app({ limits: tight });
    const d = await createDealer(database.db);
    for (let i = 0; i < DEFAULT_LIMITS.loginPerAccount.max; i++) {
      // Each from another address: the per-account limit does not depend on the IP.
      expect((await login(first, d.email, 'wrong', `10.1.0.${i}`)).statusCode).toBe(401);
    }
    const refused = await login(first, d.email, d.password, '10.1.1.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    await first.close();
    const restarted = await app({ limits: tight });
    const other = await app({ limits: tight });
    expect((await login(restarted, d.email, d.password, '10.1.1.2')).statusCode).toBe(429);
    expect((await login(other, d.email.toUpperCase(), d.password, '10.1.1.3')).statusCode).toBe(429);
    // The admin sign-in has its own budget, also per account.
    const admin = await other.inject({
      method: 'POST',
      url: '/api/admin/login',
      remoteAddress: '10.1.1.4',
      payload: { username: d.email, password: 'x' },
    });
    expect(admin.statusCode).toBe(401);
  });

  it('per IP: failures over many accounts from one address are stopped, counted across two instances', async () => {
    const one = await app({ limits: tight });
    const two = await app({ limits: tight });
    const ip = '10.2.0.1';
    const max = tight.loginPerIp!.max;
    for (let i = 0; i < max; i++) {
      const res = await login(i % 2 ? one : two, uniqueEmail('spray'), 'wrong', ip);
      expect(res.statusCode).toBe(401);
    }
    expect((await login(one, uniqueEmail('spray'), 'wrong', ip)).statusCode).toBe(429);
    expect((await login(two, uniqueEmail('spray'), 'wrong', ip)).statusCode).toBe(429);
    // Another address is unaffected.
    expect((await login(two, uniqueEmail('spray'), 'wrong', '10.2.0.2')).statusCode).toBe(401);
  });

  it('X-Forwarded-For is believed only from a configured proxy', async () => {
    const direct = await app({ limits: tight });
    const ip = '10.3.0.1';
    for (let i = 0; i < tight.loginPerIp!.max; i++) {
      // A client rotating X-Forwarded-For does not escape the limit without TRUST_PROXY.
      await login(direct, uniqueEmail('xff'), 'wrong', ip, { 'x-forwarded-for': `203.0.113.${i}` });
    }
    expect(
      (await login(direct, uniqueEmail('xff'), 'wrong', ip, { 'x-forwarded-for': '203.0.113.200' })).statusCode,
    ).toBe(429);
    // Behind a configured proxy, each forwarded client has its own budget.
    const proxied = await app({ limits: tight, trustProxy: ip });
    expect(
      (await login(proxied, uniqueEmail('xff'), 'wrong', ip, { 'x-forwarded-for': '203.0.113.201' })).statusCode,
    ).toBe(401);
  });

  it('signups and call bookings are limited per IP', async () => {
    const a = await app({
      limits: { signupPerIp: { max: 2, windowSec: 3600 }, callPerIp: { max: 2, windowSec: 3600 } },
    });
    const { application, booking } = await import('./support');
    const send = async (url: string, payload: object) =>
      (await a.inject({ method: 'POST', url, remoteAddress: '10.4.0.1', payload })).statusCode;
    const codes = [];
    for (let i = 0; i < 3; i++) {
      codes.push(await send('/api/dealer-signup', application(uniqueEmail('lim'))));
      codes.push(await send('/api/schedule-call', booking(uniqueEmail('lim'))));
    }
    expect(codes.slice(0, 4).every((c) => c < 300)).toBe(true);
    expect(codes.slice(4)).toEqual([429, 429]);
  });
});
