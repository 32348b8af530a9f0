import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashCount, hashPassword, MAX_QUEUED_HASHES } from '../../src/lib/password';
import { upsertAdmin } from '../../src/services/accounts/admins';
import { DEFAULT_LIMITS } from '../../src/services/accounts/rate-limit';
import { issueToken } from '../../src/services/accounts/tokens';
import { createDealer, createHarness, GENEROUS_LIMITS, type Harness } from '../helpers';

/**
 * Issue 12: sign-in budgets that hold under concurrency (decision 0630). Count first, then verify:
 * every attempt spends its budgets before any password work, so a burst costs at most the budget's
 * number of argon2 hashes, however it arrives (a tRPC batch, concurrent REST requests).
 */
let h: Harness;
const budget = DEFAULT_LIMITS.loginPerAccount.max;

beforeAll(async () => {
  h = await createHarness({
    limits: {
      ...GENEROUS_LIMITS,
      loginPerAccount: DEFAULT_LIMITS.loginPerAccount,
      loginPerIp: DEFAULT_LIMITS.loginPerIp,
    },
  });
});
afterAll(async () => {
  await h?.close();
});

/** A REST sign-in attempt from `ip`, by a browser holding `cookie` when one is given. */
function signIn(who: 'dealer' | 'admin', username: string, password: string, ip: string, cookie?: string) {
  return h.app.inject({
    method: 'POST',
    url: `/api/${who}/login`,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
    payload: { username, password },
  });
}

describe('sign-in budgets under bursts', () => {
  it('a 60-entry tRPC batch of dealerLogin with the right password last does not sign in, and hashes at most the budget', async () => {
    const d = await createDealer(h.db);
    const entries = 60;
    const body: Record<string, { username: string; password: string }> = {};
    for (let i = 0; i < entries; i++) {
      body[String(i)] = { username: d.email, password: i === entries - 1 ? d.password : `wrong-password-${i}` };
    }
    const before = hashCount();
    const res = await h.app.inject({
      method: 'POST',
      url: `/trpc/${Array(entries).fill('auth.dealerLogin').join(',')}?batch=1`,
      remoteAddress: '10.60.0.1',
      payload: body,
    });
    expect(hashCount() - before).toBeLessThanOrEqual(budget);
    expect(res.statusCode).toBe(400);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(JSON.stringify(res.json())).not.toContain('"user"');
  });

  it('a small batch holding a sign-in is refused whole, without hashing', async () => {
    const d = await createDealer(h.db);
    const before = hashCount();
    const res = await h.app.inject({
      method: 'POST',
      url: '/trpc/auth.dealerLogin,auth.dealerLogin?batch=1',
      remoteAddress: '10.60.0.2',
      payload: { 0: { username: d.email, password: 'wrong-password' }, 1: { username: d.email, password: d.password } },
    });
    expect(res.statusCode).toBe(400);
    expect(hashCount() - before).toBe(0);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('40 concurrent REST sign-ins from one address: at most the budget is hashed, the rest are 429 with Retry-After, then the right password is refused', async () => {
    const d = await createDealer(h.db);
    const login = (password: string) => signIn('dealer', d.email, password, '10.40.0.1');
    const before = hashCount();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`wrong-password-${i}`)));
    expect(hashCount() - before).toBeLessThanOrEqual(budget);
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(budget);
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    const afterBurst = hashCount();
    const right = await login(d.password);
    expect(right.statusCode).toBe(429);
    expect(hashCount()).toBe(afterBurst);
  });

  it('a success gives back only its own hit: failures counted by others stay', async () => {
    const d = await createDealer(h.db);
    const login = (password: string, ip: string) => signIn('dealer', d.email, password, ip);
    for (let i = 0; i < budget - 1; i++) expect((await login('wrong-password', `10.41.0.${i}`)).statusCode).toBe(401);
    expect((await login(d.password, '10.41.1.1')).statusCode).toBe(200);
    // The owner's success did not wipe the attacker's count: one more failure spends the budget.
    expect((await login('wrong-password', '10.41.2.1')).statusCode).toBe(401);
    expect((await login('wrong-password', '10.41.2.2')).statusCode).toBe(429);
  });
});

describe('lockouts nobody can aim at someone else (device cookies)', () => {
  it('10 failures for `admin` from other addresses do not stop the admin signing in from the browser that signed in before', async () => {
    const username = `admin-${Date.now().toString(36)}`;
    const password = 'admin-device-pass-1';
    await upsertAdmin(h.db, username, password);
    const login = (pw: string, ip: string, cookie?: string) => signIn('admin', username, pw, ip, cookie);
    // The admin's own browser signs in once and keeps what it was given (a cookie jar).
    const first = await login(password, '10.70.0.1');
    expect(first.statusCode).toBe(200);
    const jar = first.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const device = first.cookies.find((c) => c.name === 'dn_device');
    expect(device?.httpOnly).toBe(true);
    for (let i = 0; i < 10; i++)
      expect([401, 429]).toContain((await login('wrong-password', `10.71.0.${i}`)).statusCode);
    // Unknown clients share the locked budget, even with the right password...
    expect((await login(password, '10.72.0.1')).statusCode).toBe(429);
    // ...a forged or foreign device cookie is an unknown client too...
    expect((await login(password, '10.72.0.2', `dn_device=${device?.value.slice(0, -2)}xx`)).statusCode).toBe(429);
    // ...and the browser that signed in before still gets in.
    expect((await login(password, '10.70.0.1', jar)).statusCode).toBe(200);
  });
});

describe('lockouts end with a completed reset', () => {
  it('a dealer locked out signs in right after a completed password reset', async () => {
    const d = await createDealer(h.db);
    const login = (password: string, ip: string) => signIn('dealer', d.email, password, ip);
    for (let i = 0; i < budget; i++) expect((await login('wrong-password', `10.50.0.${i}`)).statusCode).toBe(401);
    expect((await login(d.password, '10.50.1.1')).statusCode).toBe(429);
    const token = await issueToken(h.db, d.id, 'reset');
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/setup-password',
      remoteAddress: '10.50.1.1',
      payload: { token, password: 'after-reset-pass-1', confirmPassword: 'after-reset-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login('after-reset-pass-1', '10.50.1.1')).statusCode).toBe(200);
  });
});

describe('the argon2 queue is bounded', () => {
  it('past its length a hash is refused at once with 503 and a retry time, and the queue keeps working', async () => {
    const burst = Array.from({ length: MAX_QUEUED_HASHES + 8 }, (_, i) =>
      hashPassword(`queued-${i}`).then(
        () => 'ok' as const,
        (err: { code?: string; extra?: { retryAfterSec?: number } }) => err,
      ),
    );
    const results = await Promise.all(burst);
    const refused = results.filter((r) => r !== 'ok');
    expect(results.filter((r) => r === 'ok')).toHaveLength(MAX_QUEUED_HASHES);
    expect(refused).toHaveLength(8);
    for (const r of refused) {
      expect(r).toMatchObject({ code: 'UNAVAILABLE' });
      expect((r as { extra: { retryAfterSec: number } }).extra.retryAfterSec).toBeGreaterThan(0);
    }
    await expect(hashPassword('after-the-burst')).resolves.toMatch(/^\$argon2id\$/);
  });
});
