import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, redactUrl } from '../src/app';
import type { Config } from '../src/env';
import { appLoggingTo, createDealer, GENEROUS_LIMITS, testConfig } from './helpers';

/** Request logs never carry a one-time link, and the session cookie is Secure on an https site. */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('request logs', () => {
  const TOKEN = 'abcDEF0123456789secretTokenValue_xyz';

  it('do not contain the token of a one-time link, and write one line per request', async () => {
    const lines: string[] = [];
    const app = await appLoggingTo(database, lines);
    try {
      const urls = [
        `/login?token=${TOKEN}`,
        `/login?r=rita-01&token=${TOKEN}`,
        `/api/auth/user?reset_token=${TOKEN}&code=${TOKEN}&password=${TOKEN}`,
        `/login?%74oken=${TOKEN}`,
      ];
      for (const url of urls) await app.inject({ url });
      await app.inject({
        method: 'POST',
        url: `/api/dealer/login?token=${TOKEN}`,
        payload: { username: 'x', password: TOKEN },
      });
      const all = lines.join('\n');
      expect(all).toContain('/login');
      expect(all).not.toContain(TOKEN);

      const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
      expect(requests).toHaveLength(urls.length + 1);
      expect(lines.some((l) => l.includes('incoming request'))).toBe(false);
      expect(requests[0]).toMatchObject({ method: 'GET', url: '/login?token=[redacted]', statusCode: 404 });
      expect(requests[1].url).toBe('/login?r=rita-01&token=[redacted]');
      for (const r of requests) {
        expect(typeof r.reqId).toBe('string');
        expect(typeof r.ms).toBe('number');
      }
      expect(requests.at(-1)).toMatchObject({ method: 'POST', route: '/api/dealer/login' });
    } finally {
      await app.close();
    }
  });

  it('redactUrl keeps the path and harmless parameters', () => {
    expect(redactUrl('/login')).toBe('/login');
    expect(redactUrl('/?r=rita-01')).toBe('/?r=rita-01');
    expect(redactUrl('/x?a=1&Token=s&b&api_key=k&sig=z')).toBe(
      '/x?a=1&Token=[redacted]&b&api_key=[redacted]&sig=[redacted]',
    );
    expect(redactUrl('/x?%E0%A4%A=1&token=s')).toBe('/x?%E0%A4%A=1&token=[redacted]');
    // A name is judged decoded: an escaped or plus-spaced secret name is still one.
    expect(redactUrl('/x?%74oken=s&my+code=c&a+b=1')).toBe('/x?%74oken=[redacted]&my+code=[redacted]&a+b=1');
    // Nothing secret: the very string that came in.
    const url = '/trpc/account.info?batch=1&input=%7B%7D';
    expect(redactUrl(url)).toBe(url);
  });
});

describe('session cookie', () => {
  const login = async (config: Partial<Config>, headers: Record<string, string> = {}) => {
    const app = await buildApp({ config: testConfig(config), database, limits: GENEROUS_LIMITS, logger: false });
    try {
      const d = await createDealer(database.db);
      const res = await app.inject({
        method: 'POST',
        url: '/api/dealer/login',
        headers,
        payload: { username: d.email, password: d.password },
      });
      expect(res.statusCode, res.body).toBe(200);
      const cookie = String(res.headers['set-cookie']);
      // The session was saved, not only announced: the cookie signs the next request in.
      const me = await app.inject({ url: '/api/auth/user', headers: { cookie: cookie.split(';')[0]! } });
      expect(me.json()).toMatchObject({ email: d.email });
      return cookie;
    } finally {
      await app.close();
    }
  };

  it('is Secure when PUBLIC_URL is https, even behind a proxy that is not in TRUST_PROXY', async () => {
    const cookie = await login({ publicUrl: 'https://dealers.example.com', trustProxy: undefined });
    expect(cookie).toMatch(/^dn\.sid=/);
    expect(cookie).toMatch(/; Secure/i);
  });

  it('follows the request on an http PUBLIC_URL (development): not Secure over plain http', async () => {
    expect(await login({ publicUrl: 'http://localhost:3000' })).not.toMatch(/Secure/i);
    expect(
      await login({ publicUrl: 'http://localhost:3000', trustProxy: '127.0.0.1' }, { 'x-forwarded-proto': 'https' }),
    ).toMatch(/; Secure/i);
  });
});
