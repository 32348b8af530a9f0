import { createHmac, randomBytes } from 'node:crypto';
import { sql } from '@dn/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/tokens';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSION_RENEW_MS } from '../../src/plugins/session';
import { issueToken } from '../../src/services/accounts/tokens';
import {
  cookieOf,
  createDealer,
  createHarness,
  type Harness,
  signInAdmin,
  signInDealer,
  TEST_SECRET,
} from '../helpers';

/** Session fixation, logout, expiry and revocation, against the real session store. */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Signed as @fastify/cookie signs, with the app's real secret. */
const signed = (value: string) =>
  `${value}.${createHmac('sha256', TEST_SECRET).update(value).digest('base64').replace(/=+$/, '')}`;
const me = (cookie: string) => h.app.inject({ url: '/api/auth/user', headers: { cookie } });
const sidOf = (cookie: string) => decodeURIComponent(cookie.slice('dn.sid='.length)).split('.')[0]!;
const rowOf = (cookie: string) =>
  h.db
    .selectFrom('sessions')
    .select(['sid', 'sess', 'expire'])
    .where('sid', '=', sha256(sidOf(cookie)))
    .executeTakeFirst();
const sessionCount = async (userId: string) =>
  Number(
    (await sql<{ n: string }>`select count(*)::text as n from sessions where sess->>'userId' = ${userId}`.execute(h.db))
      .rows[0]?.n,
  );

/** Rewrites a session row's clocks, as if time had passed. */
async function age(cookie: string, clocks: { authAt?: number; seenAt?: number; expire?: Date }) {
  const row = await rowOf(cookie);
  if (!row) throw new Error('no session row');
  const sess = { ...(row.sess as Record<string, unknown>), ...clocks, expire: undefined };
  await h.db
    .updateTable('sessions')
    .set({ sess: JSON.stringify(sess) as never, ...(clocks.expire ? { expire: clocks.expire } : {}) })
    .where('sid', '=', row.sid)
    .execute();
}

describe('session fixation', () => {
  it('never adopts an invented session id, signed or not, and stores nothing for it', async () => {
    const invented = randomBytes(32).toString('base64url');
    // Signed with the real secret: as strong an attacker as can exist without a database row.
    for (const value of [invented, signed(invented), 'x', '../../etc', '%00']) {
      const res = await me(`dn.sid=${encodeURIComponent(value)}`);
      expect(res.statusCode).toBe(401);
    }
    expect(await rowOf(`dn.sid=${invented}`)).toBeUndefined();
  });

  it('gives a new id at sign-in; a planted (even valid) id never becomes the victim session', async () => {
    const attacker = await createDealer(h.db);
    const victim = await createDealer(h.db);
    const attackerCookie = await signInDealer(h.app, attacker.email);
    const planted = `dn.sid=${encodeURIComponent(signed(randomBytes(32).toString('base64url')))}`;
    for (const fixed of [planted, attackerCookie]) {
      const login = await h.app.inject({
        method: 'POST',
        url: '/api/dealer/login',
        headers: { cookie: fixed },
        payload: { username: victim.email, password: victim.password },
      });
      expect(login.statusCode).toBe(200);
      const fresh = cookieOf(login);
      expect(sidOf(fresh)).not.toBe(sidOf(fixed));
      expect((await me(fresh)).json().email).toBe(victim.email);
      const fixedNow = await me(fixed);
      // The planted id reaches nobody; the attacker's own id is at most the attacker.
      if (fixedNow.statusCode === 200) expect(fixedNow.json().email).toBe(attacker.email);
      else expect(fixedNow.statusCode).toBe(401);
    }
    const a = await signInDealer(h.app, victim.email);
    const b = await signInDealer(h.app, victim.email);
    expect(sidOf(a)).not.toBe(sidOf(b));
  });

  it('sets the cookie HttpOnly, SameSite=Lax, and Secure when the request came over https', async () => {
    const d = await createDealer(h.db);
    const login = (headers: Record<string, string>, app = h.app) =>
      app.inject({
        method: 'POST',
        url: '/api/dealer/login',
        headers,
        payload: { username: d.email, password: d.password },
      });
    const plain = String((await login({})).headers['set-cookie']);
    expect(plain).toMatch(/HttpOnly/i);
    expect(plain).toMatch(/SameSite=Lax/i);
    // A forwarded proto is believed only from a configured proxy. (On an http PUBLIC_URL: with an
    // https one the cookie is Secure whatever the request says, see test/deploy-logs.int.test.ts.)
    const { buildApp } = await import('../../src/app');
    const { testConfig, GENEROUS_LIMITS } = await import('../helpers');
    const httpSite = (trustProxy: string | undefined) =>
      buildApp({
        config: testConfig({ publicUrl: 'http://dealers.test', trustProxy }),
        database: h.database,
        limits: GENEROUS_LIMITS,
        logger: false,
      });
    const direct = await httpSite(undefined);
    const proxied = await httpSite('127.0.0.1');
    try {
      expect(
        String((await login({ 'x-forwarded-proto': 'https' }, direct as typeof h.app)).headers['set-cookie']),
      ).not.toMatch(/Secure/i);
      expect(
        String((await login({ 'x-forwarded-proto': 'https' }, proxied as typeof h.app)).headers['set-cookie']),
      ).toMatch(/; Secure/i);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });

  it('keeps only a hash of the id in the database', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const rows = await sql<{ sid: string }>`select sid from sessions`.execute(h.db);
    expect(rows.rows.some((r) => r.sid === sidOf(cookie))).toBe(false);
    expect(rows.rows.some((r) => r.sid === sha256(sidOf(cookie)))).toBe(true);
  });
});

describe('logout', () => {
  it('cannot be replayed: the old cookie stays dead, a second logout changes nothing', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const out = await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/dn\.sid=;/);
    expect(await rowOf(cookie)).toBeUndefined();
    const again = await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(again.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await h.app.inject({ url: '/trpc/account.info', headers: { cookie } })).statusCode).toBe(401);
    expect(await sessionCount(d.id)).toBe(0);
  });

  for (const renewing of [false, true]) {
    it(`racing 20 in-flight polls leaves the session dead (${renewing ? 'polls renewing the idle clock' : 'fresh session'})`, async () => {
      const d = await createDealer(h.db);
      const cookie = await signInDealer(h.app, d.email);
      if (renewing) {
        // Old enough that every poll wants to write its renewal, and past the insert grace.
        const t = Date.now() - 2 * SESSION_RENEW_MS;
        await age(cookie, { authAt: t, seenAt: t });
      }
      const polls = Array.from({ length: 20 }, (_, i) =>
        i % 2 ? me(cookie) : h.app.inject({ url: '/trpc/account.info', headers: { cookie } }),
      );
      const logout = h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
      await Promise.all([...polls, logout]);
      expect((await logout).statusCode).toBe(200);
      // Give late saves their chance before looking.
      await new Promise((r) => setTimeout(r, 200));
      expect(await sessionCount(d.id)).toBe(0);
      expect((await me(cookie)).statusCode).toBe(401);
    });
  }
});

describe('expiry', () => {
  it('ends a session idle for longer than the idle timeout (the row and the session data each suffice)', async () => {
    const d = await createDealer(h.db);
    const byRow = await signInDealer(h.app, d.email);
    await age(byRow, { expire: new Date(Date.now() - 1_000) });
    expect((await me(byRow)).statusCode).toBe(401);

    const bySess = await signInDealer(h.app, d.email);
    const idle = Date.now() - SESSION_IDLE_MS - 60_000;
    await age(bySess, { authAt: idle, seenAt: idle });
    expect((await me(bySess)).statusCode).toBe(401);
    expect(await rowOf(bySess)).toBeUndefined();
  });

  it('ends a session older than the absolute lifetime however active it is', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    await age(cookie, { authAt: Date.now() - SESSION_ABSOLUTE_MS - 60_000, seenAt: Date.now() - 60_000 });
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('renews the idle clock at most hourly, never past the absolute lifetime', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const recent = Date.now() - 10 * 60_000;
    await age(cookie, { authAt: recent, seenAt: recent });
    const before = await rowOf(cookie);
    for (let i = 0; i < 5; i++) expect((await me(cookie)).statusCode).toBe(200);
    const untouched = await rowOf(cookie);
    expect(untouched?.sess).toEqual(before?.sess);

    const authAt = Date.now() - SESSION_ABSOLUTE_MS + 30 * 60_000;
    await age(cookie, { authAt, seenAt: Date.now() - 2 * SESSION_RENEW_MS });
    expect((await me(cookie)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const renewed = await rowOf(cookie);
    expect((renewed!.sess as { seenAt: number }).seenAt).toBeGreaterThan(Date.now() - 60_000);
    expect(new Date(renewed!.expire).getTime()).toBe(authAt + SESSION_ABSOLUTE_MS);
    // The user read with the row travels with the request only: a save stores the session's own fields.
    expect(Object.keys(renewed!.sess as object).sort()).toEqual([
      'authAt',
      'cookie',
      'device',
      'role',
      'seenAt',
      'userId',
    ]);
  });
});

describe('sessions end when the account changes', () => {
  it('all sessions of a dealer end when the password is set from a link', async () => {
    const d = await createDealer(h.db);
    const a = await signInDealer(h.app, d.email);
    const b = await signInDealer(h.app, d.email);
    const token = await issueToken(h.db, d.id, 'reset');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/setup-password',
      payload: { token, password: 'brand-new-pass-1', confirmPassword: 'brand-new-pass-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(a)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(cookieOf(res))).statusCode).toBe(200);
    expect(await sessionCount(d.id)).toBe(1);
  });

  for (const status of ['suspended', 'inactive', 'rejected', 'pending'] as const) {
    it(`all sessions of a dealer end when an admin sets the status to ${status}`, async () => {
      const admin = await signInAdmin(h.app);
      const d = await createDealer(h.db);
      const a = await signInDealer(h.app, d.email);
      const b = await signInDealer(h.app, d.email);
      const res = await h.app.inject({
        method: 'POST',
        url: `/api/admin/dealers/${d.id}/status`,
        headers: { cookie: admin },
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await sessionCount(d.id)).toBe(0);
      expect((await me(a)).statusCode).toBe(401);
      expect((await me(b)).statusCode).toBe(401);
    });
  }

  it('all sessions of a dealer end when an admin rejects it (tRPC)', async () => {
    const admin = await signInAdmin(h.app);
    const d = await createDealer(h.db);
    const a = await signInDealer(h.app, d.email);
    const res = await h.app.inject({
      method: 'POST',
      url: '/trpc/admin.reject',
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: d.id, reason: 'Not a fit' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sessionCount(d.id)).toBe(0);
    expect((await me(a)).statusCode).toBe(401);
  });

  it('a dealer set to active keeps its sessions', async () => {
    const admin = await signInAdmin(h.app);
    const d = await createDealer(h.db);
    const a = await signInDealer(h.app, d.email);
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${d.id}/status`,
      headers: { cookie: admin },
      payload: { status: 'active' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(a)).statusCode).toBe(200);
  });

  it('a dealer session can never act as an admin, and a deleted admin loses access at once', async () => {
    const adminCookie = await signInAdmin(h.app, 'gone-admin', 'gone-admin-pass');
    await h.db.deleteFrom('admins').where('username', '=', 'gone-admin').execute();
    expect((await me(adminCookie)).statusCode).toBe(401);
  });
});
