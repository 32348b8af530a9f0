import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import type { AppRouter } from '../src/index';
import { upsertAdmin } from '../src/services/accounts/admins';
import { cookieOf, createHarness, GENEROUS_LIMITS, type Harness, testConfig } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await h.app.inject('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
    const ready = await h.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready' });
  });
});

describe('admin sign-in', () => {
  it('signs in, tells who is signed in, and signs out', async () => {
    await upsertAdmin(h.db, 'root', 'correct-horse-1');
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'ROOT', password: 'correct-horse-1' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ username: 'root', role: 'admin' });
    expect(login.body).not.toMatch(/argon2|passwordHash/);
    const cookie = cookieOf(login);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const me = await h.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'root', role: 'admin', fullName: 'Admin' });

    const out = await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const after = await h.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('refuses a wrong password with 401 and stores no session', async () => {
    await upsertAdmin(h.db, 'boss', 'correct-horse-2');
    const before = await h.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'boss', password: 'wrong' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid username or password' });
    expect(res.headers['set-cookie']).toBeUndefined();
    const after = await h.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 401 on /api/auth/user for a visitor, without creating a session', async () => {
    const res = await h.app.inject('/api/auth/user');
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('keeps the session in the database: a second app on the same database accepts it', async () => {
    await upsertAdmin(h.db, 'twin', 'correct-horse-3');
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'twin', password: 'correct-horse-3' },
    });
    const cookie = cookieOf(login);
    const other = await buildApp({
      config: testConfig(),
      database: h.database,
      limits: GENEROUS_LIMITS,
      logger: false,
    });
    try {
      const me = await other.inject({ url: '/api/auth/user', headers: { cookie } });
      expect(me.statusCode).toBe(200);
      expect(me.json().username).toBe('twin');
    } finally {
      await other.close();
    }
  });

  it('stores only a hash of the session id', async () => {
    await upsertAdmin(h.db, 'hashy', 'correct-horse-4');
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'hashy', password: 'correct-horse-4' },
    });
    const sid = decodeURIComponent(cookieOf(login).split('=')[1]!).split('.')[0]!;
    const rows = await h.db.selectFrom('sessions').select('sid').execute();
    expect(rows.some((r) => r.sid === sid)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.sid))).toBe(true);
  });
});

describe('bad input never gives a 5xx', () => {
  const bodies: [string, string][] = [
    ['{}', 'application/json'],
    ['[]', 'application/json'],
    ['null', 'application/json'],
    ['{"username":', 'application/json'],
    [JSON.stringify({ username: 'x'.repeat(1_000_000), password: 'y' }), 'application/json'],
    ['x'.repeat(1_000_000), 'text/plain'],
    ['a=1', 'application/x-www-form-urlencoded'],
  ];
  for (const url of ['/api/admin/login', '/api/dealer/login', '/api/auth/logout', '/trpc/auth.adminLogin']) {
    it(`POST ${url}`, async () => {
      for (const [payload, type] of bodies) {
        const res = await h.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
        expect(res.statusCode, `${type} ${payload.slice(0, 20)}`).toBeGreaterThanOrEqual(200);
        expect(res.statusCode, `${type} ${payload.slice(0, 20)}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.headers['content-type']).toMatch(/json/);
        expect(res.body).not.toMatch(/at .*\.ts:\d+/);
      }
    });
  }

  it('answers the spec messages for a missing field', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/admin/login', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Username is required',
      fieldErrors: { username: 'Username is required', password: 'Password is required' },
    });
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await h.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/No route/);
  });
});

describe('developer access', () => {
  it('serves an OpenAPI document of the REST paths', async () => {
    const res = await h.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/admin/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'username',
    );
  });

  it('works with @trpc/client as in the README', async () => {
    await upsertAdmin(h.db, 'scripter', 'script-pass-1');
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    let cookie = '';
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${address}/trpc`,
          headers: () => (cookie ? { cookie } : {}),
          fetch: async (url, init) => {
            const res = await fetch(url, init);
            const set = res.headers.get('set-cookie');
            if (set) cookie = set.split(';')[0]!;
            return res;
          },
        }),
      ],
    });
    expect(await client.auth.me.query()).toBeNull();
    const { user } = await client.auth.adminLogin.mutate({ username: 'scripter', password: 'script-pass-1' });
    expect(user.role).toBe('admin');
    expect((await client.auth.me.query())?.username).toBe('scripter');
    await expect(client.auth.adminLogin.mutate({ username: '', password: '' })).rejects.toThrow('Username is required');
  });
});
