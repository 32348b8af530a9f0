import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_MESSAGES } from '../src/services/accounts/sign-in';
import { cookieOf, createDealer, createHarness, type Harness, signInDealer, uniqueEmail } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const login = (username: string, password: string, cookie?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/dealer/login',
    payload: { username, password },
    ...(cookie ? { headers: { cookie } } : {}),
  });

const me = (cookie: string) => h.app.inject({ url: '/api/auth/user', headers: { cookie } });

describe('dealer sign-in', () => {
  it('signs an approved dealer in by email, case-insensitively, and answers who is signed in', async () => {
    const d = await createDealer(h.db, { email: uniqueEmail('approved'), fullName: 'Ann Approved' });
    const res = await login(d.email.toUpperCase(), d.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: d.email, role: 'dealer', fullName: 'Ann Approved' });
    expect(res.body).not.toMatch(/argon2|password/i);
    const who = await me(cookieOf(res));
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({ username: d.email, role: 'dealer' });
  });

  it('lets an active dealer sign in too', async () => {
    const d = await createDealer(h.db, { status: 'active' });
    expect((await login(d.email, d.password)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown user with the same words', async () => {
    const d = await createDealer(h.db);
    const wrong = await login(d.email, 'not-the-password');
    const unknown = await login(uniqueEmail('nobody'), 'whatever-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('answers a dealer who never set a password like an unknown user', async () => {
    const d = await createDealer(h.db, { password: null });
    const res = await login(d.email, 'anything-1');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid email or password');
  });

  it.each(['pending', 'rejected', 'inactive', 'suspended'] as const)(
    'tells a %s dealer with the right password why they cannot sign in',
    async (status) => {
      const d = await createDealer(h.db, { status });
      const res = await login(d.email, d.password);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(STATUS_MESSAGES[status]);
      expect(res.headers['set-cookie'] ?? '').not.toMatch(/dn\.sid=[^;]+/);
      // With a wrong password the status stays private.
      const wrong = await login(d.email, 'wrong-password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Invalid email or password');
    },
  );

  it('refuses bad input in the schema words, without a 500', async () => {
    const none = await h.app.inject({ method: 'POST', url: '/api/dealer/login', payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Username is required');
    const noPassword = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      payload: { username: 'a@b.co' },
    });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toBe('Password is required');
    const huge = await login('a@b.co', 'x'.repeat(10_000));
    expect(huge.statusCode).toBe(400);
  });
});

describe('sessions', () => {
  it('gives a new session id at every sign-in; the old id stops working', async () => {
    const d = await createDealer(h.db);
    const first = cookieOf(await login(d.email, d.password));
    const second = cookieOf(await login(d.email, d.password, first));
    expect(second).not.toBe(first);
    expect((await me(second)).statusCode).toBe(200);
    expect((await me(first)).statusCode).toBe(401);
  });

  it('after logout, replaying the old cookie is anonymous', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email, d.password);
    expect((await me(cookie)).statusCode).toBe(200);
    const out = await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/dn\.sid=;/);
    expect((await me(cookie)).statusCode).toBe(401);
    const info = await h.app.inject({ url: '/api/dealer/info', headers: { cookie } });
    expect(info.statusCode).toBe(401);
  });

  it("ends a dealer's open session once the dealer is suspended", async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email, d.password);
    expect((await h.app.inject({ url: '/api/dealer/info', headers: { cookie } })).statusCode).toBe(200);
    await h.db.updateTable('dealers').set({ status: 'suspended' }).where('id', '=', d.id).execute();
    expect((await h.app.inject({ url: '/api/dealer/info', headers: { cookie } })).statusCode).toBe(401);
    expect((await me(cookie)).statusCode).toBe(401);
    // Reinstating does not revive the session: it was destroyed.
    await h.db.updateTable('dealers').set({ status: 'approved' }).where('id', '=', d.id).execute();
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('sign-in rate limits', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({
      database: h.database,
      limits: { loginPerAccount: { max: 3, windowSec: 600 }, loginPerIp: { max: 1000, windowSec: 600 } },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('refuses with 429, a retry message and Retry-After once the budget is spent, and lets in again after the window', async () => {
    const d = await createDealer(h.db);
    const attempt = (password: string) =>
      limited.app.inject({ method: 'POST', url: '/api/dealer/login', payload: { username: d.email, password } });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    const refused = await attempt(d.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    // Another account from the same address is not locked out.
    const other = await createDealer(h.db);
    const ok = await limited.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      payload: { username: other.email, password: other.password },
    });
    expect(ok.statusCode).toBe(200);
    // The window passes.
    await h.db
      .updateTable('rateLimits')
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where('key', '=', `login:dealer:${d.email.toLowerCase()}`)
      .execute();
    expect((await attempt(d.password)).statusCode).toBe(200);
  });
});
