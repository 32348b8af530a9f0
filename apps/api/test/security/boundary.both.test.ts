import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROSS_SITE_MESSAGE } from '../../src/plugins/security';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from '../helpers';
import { FOREIGN_ORIGIN, fingerprint, inject, procedures, routes, trpc } from './support';

/** Cross-site request refusal, security headers, caching and CORS, over every route in the tables. */

let h: Harness;
let adminCookie: string;
let dealerCookie: string;
let webRoot: string;

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'dn-sec-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
  h = await createHarness();
  await h.app.close();
  // A second app on the same database, serving a web root, for the page headers.
  const { buildApp } = await import('../../src/app');
  const { testConfig, GENEROUS_LIMITS } = await import('../helpers');
  h.app = (await buildApp({
    config: testConfig(),
    database: h.database,
    limits: GENEROUS_LIMITS,
    logger: false,
    webRoot,
  })) as Harness['app'];
  await h.app.ready();
  adminCookie = await signInAdmin(h.app);
  const dealer = await createDealer(h.db);
  dealerCookie = await signInDealer(h.app, dealer.email);
});
afterAll(async () => {
  await h?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const CONTENT_TYPES: Array<[string, string]> = [
  ['application/json', '{"username":"x","password":"y"}'],
  ['application/x-www-form-urlencoded', 'username=x&password=y'],
  [
    'multipart/form-data; boundary=XyZ',
    '--XyZ\r\nContent-Disposition: form-data; name="username"\r\n\r\nx\r\n--XyZ--\r\n',
  ],
  ['text/plain', '{"username":"x","password":"y"}'],
];

const writes = () => routes().filter((r) => r.method !== 'GET');
const mutations = () => procedures().filter((p) => p.type === 'mutation');

describe('cross-site requests are refused on every state-changing route', () => {
  it('has routes and mutations to attack', () => {
    expect(writes().length).toBeGreaterThan(0);
    expect(mutations().length).toBeGreaterThan(0);
  });

  for (const [type, body] of CONTENT_TYPES) {
    it(`REST writes with a foreign Origin and ${type.split(';')[0]}: 403, nothing changes`, async () => {
      const before = await fingerprint(h.db);
      for (const route of writes()) {
        for (const cookie of [adminCookie, dealerCookie]) {
          const res = await inject(h.app, route, {
            headers: { origin: FOREIGN_ORIGIN, 'content-type': type, cookie },
            payload: body,
          });
          expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
          expect(res.json()).toEqual({ message: CROSS_SITE_MESSAGE });
        }
      }
      expect(await fingerprint(h.db)).toEqual(before);
    });

    it(`tRPC mutations with a foreign Origin and ${type.split(';')[0]}: 403, nothing changes`, async () => {
      const before = await fingerprint(h.db);
      for (const proc of mutations()) {
        const res = await h.app.inject({
          method: 'POST',
          url: `/trpc/${proc.path}`,
          headers: { origin: FOREIGN_ORIGIN, 'content-type': type, cookie: adminCookie },
          payload: body,
        });
        expect(res.statusCode, proc.path).toBe(403);
      }
      expect(await fingerprint(h.db)).toEqual(before);
    });
  }

  it('refuses Sec-Fetch-Site: cross-site and same-site without an Origin, and a null Origin', async () => {
    const route = routes().find((r) => r.url === '/api/admin/login')!;
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      { origin: 'https://dealers.test.evil.example' },
      { origin: 'http://dealers.test' },
      { origin: 'https://dealers.test', 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await inject(h.app, route, { headers, payload: { username: 'x', password: 'y' } });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
    }
  });

  it('lets same-origin browsers and clients without either header through', async () => {
    await signInAdmin(h.app, 'boundary-admin', 'boundary-pass-1');
    const ok = [
      {},
      { origin: 'https://dealers.test' },
      { origin: 'https://dealers.test', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin' },
      // The app reached under its own host name (an internal address, localhost).
      { origin: 'http://internal.local:3000', host: 'internal.local:3000' },
    ];
    for (const headers of ok) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers,
        payload: { username: 'boundary-admin', password: 'boundary-pass-1' },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
  });

  it('runs no tRPC mutation over GET', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const before = await fingerprint(h.db);
    for (const proc of mutations()) {
      const res = await h.app.inject({
        url: `/trpc/${proc.path}?input=${encodeURIComponent(JSON.stringify({ recruiterId: 'via_get' }))}`,
        headers: { cookie },
      });
      expect(res.statusCode, proc.path).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, proc.path).toBeLessThan(500);
    }
    expect(await fingerprint(h.db)).toEqual(before);
    // auth.logout over GET did not end the session.
    expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
  });

  it('changes no state over GET: no route table GET is a write', async () => {
    const before = await fingerprint(h.db);
    for (const route of routes().filter((r) => r.method === 'GET')) {
      await inject(h.app, route, { headers: { cookie: adminCookie } });
      await inject(h.app, route, { headers: { cookie: dealerCookie } });
    }
    for (const proc of procedures().filter((p) => p.type === 'query')) {
      await trpc(h.app, proc, undefined, { cookie: adminCookie });
    }
    const after = await fingerprint(h.db);
    // The outbox may be drained by the mail worker meanwhile; the business tables may not change.
    for (const t of Object.keys(before)) if (t !== 'email_outbox') expect(after[t], t).toBe(before[t]);
  });
});

describe('security headers on every answer', () => {
  const expectHeaders = (res: { headers: Record<string, unknown> }, what: string) => {
    const csp = String(res.headers['content-security-policy']);
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).toContain("script-src 'self'");
    expect(csp, what).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp, what).toMatch(/frame-src https:\/\/player\.vimeo\.com https:\/\/docs\.google\.com/);
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    expect(res.headers['referrer-policy'], what).toBeDefined();
    expect(res.headers['strict-transport-security'], what).toMatch(/max-age=\d{7,}/);
  };

  it('on JSON, errors, 404s, CSRF refusals, tRPC and pages', async () => {
    const cases: Array<[string, InjectOptions]> = [
      ['health', { url: '/healthz' }],
      ['401', { url: '/api/auth/user' }],
      ['400', { method: 'POST', url: '/api/admin/login', payload: {} }],
      [
        'bad json',
        { method: 'POST', url: '/api/admin/login', headers: { 'content-type': 'application/json' }, payload: '{' },
      ],
      ['404 api', { url: '/api/nope' }],
      ['403 csrf', { method: 'POST', url: '/api/auth/logout', headers: { origin: FOREIGN_ORIGIN } }],
      ['trpc', { url: '/trpc/auth.me' }],
      ['trpc 404', { url: '/trpc/nope.nothing' }],
      ['page', { url: '/' }],
      ['unknown page', { url: '/no/such/page' }],
    ];
    for (const [what, opts] of cases) expectHeaders(await h.app.inject(opts), what);
  });

  it('on the CSV export, if there is one', async () => {
    // The export of one payout batch (issue 13) needs a batch to export.
    const batch = await h.db
      .insertInto('payouts')
      .values({ minimum: '50.00', total: '0.00', recruiterCount: 0, commissionCount: 0, createdBy: 'security' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Every CSV download (its path ends in /export; /export-columns is a JSON preference).
    for (const route of routes().filter((r) => r.method === 'GET' && /\/export$/.test(r.url))) {
      const res = await inject(h.app, route, { params: { id: batch.id }, headers: { cookie: adminCookie } });
      expect(res.statusCode, route.url).toBe(200);
      expectHeaders(res, route.url);
      expect(res.headers['cache-control'], route.url).toBe('no-store');
    }
  });

  it('sends no referrer from pages that carry a token', async () => {
    for (const url of ['/login', '/login?token=abc', '/login?tab=dealer']) {
      expect((await h.app.inject(url)).headers['referrer-policy'], url).toBe('no-referrer');
    }
    expect((await h.app.inject('/')).headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('sends HSTS only when served over https', async () => {
    const { buildApp } = await import('../../src/app');
    const { testConfig } = await import('../helpers');
    const plain = await buildApp({
      config: testConfig({ publicUrl: 'http://localhost:3000' }),
      database: h.database,
      logger: false,
    });
    try {
      expect((await plain.inject('/healthz')).headers['strict-transport-security']).toBeUndefined();
      // A forwarded proto from an untrusted peer is not believed.
      const forwarded = await plain.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(forwarded.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});

describe('slow clients', () => {
  it('a request must arrive whole within 30 s, headers within 60 s', () => {
    expect(h.app.server.requestTimeout).toBe(30_000);
    expect(h.app.server.headersTimeout).toBeGreaterThan(0);
    expect(h.app.server.headersTimeout).toBeLessThanOrEqual(60_000);
  });
});

describe('static files', () => {
  it('never serve a file outside the web root', async () => {
    for (const url of [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/..%5c..%5c..%5cetc%5cpasswd',
      '/index.html/../../package.json',
    ]) {
      const res = await h.app.inject(url);
      expect(res.body, url).not.toMatch(/root:|"dependencies"/);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});

describe('caching of API answers', () => {
  it('authenticated JSON is no-store unless it carries an ETag', async () => {
    const gets = routes().filter((r) => r.method === 'GET' && r.access !== 'public');
    const reads = [
      ...gets.map(
        (r) => () => inject(h.app, r, { headers: { cookie: r.access === 'admin' ? adminCookie : dealerCookie } }),
      ),
      () => h.app.inject({ url: '/api/auth/user', headers: { cookie: dealerCookie } }),
      () => trpc(h.app, { path: 'auth.me', type: 'query' }, undefined, { cookie: dealerCookie }),
    ];
    for (const read of reads) {
      const res = await read();
      const cc = String(res.headers['cache-control']);
      if (res.headers.etag) expect(cc, res.raw.req.url).toMatch(/private|no-cache/);
      else expect(cc, res.raw.req.url).toBe('no-store');
      expect(cc).not.toMatch(/public/);
    }
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'a', password: 'b' },
    });
    expect(login.headers['cache-control']).toBe('no-store');
  });
});

describe('CORS never grants a foreign origin', () => {
  for (const origin of [FOREIGN_ORIGIN, 'null']) {
    it(`origin ${origin}: no Access-Control-Allow-Origin on preflights, reads or writes`, async () => {
      const preflight = await h.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/user',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      const read = await h.app.inject({ url: '/api/auth/user', headers: { origin, cookie: dealerCookie } });
      const trpcRead = await h.app.inject({ url: '/trpc/auth.me', headers: { origin, cookie: dealerCookie } });
      const write = await h.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { origin, cookie: dealerCookie },
      });
      for (const res of [preflight, read, trpcRead, write]) {
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      }
      // The dealer's session survived the refused cross-site logout.
      expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie: dealerCookie } })).statusCode).toBe(200);
    });
  }
});
