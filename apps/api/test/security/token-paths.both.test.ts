import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { createHarness, GENEROUS_LIMITS, type Harness, type TestApp, testConfig } from '../helpers';
import { urlOf } from './support';

/**
 * Issue 45, finding 9: every address that carries a token answers `Referrer-Policy: no-referrer`
 * (the pages, their REST paths and their tRPC queries, found or not: the applicant's, the
 * homeowner's installation status, the call's reminder link, the sign-in and invitation links), read
 * from the live route table so a new token path is covered; and `/metrics` without its token, or
 * with a wrong one, answers exactly as an unknown path does (the web app's HTML 404 page).
 */

const TOKEN = 'metrics-token-for-the-404-test-0123';
let h: Harness;
let app: TestApp;
let webRoot: string;

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'dn-sec-token-paths-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
  h = await createHarness();
  app = (await buildApp({
    config: testConfig({ metricsToken: TOKEN }),
    database: h.database,
    limits: GENEROUS_LIMITS,
    logger: false,
    webRoot,
  })) as TestApp;
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await app?.deps.mail.stop();
  await h?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const TOKENISH = 'a'.repeat(43);
const trpcGet = (path: string, input: unknown) =>
  app.inject({ url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` });

describe('no-referrer on every token path', () => {
  it('every served route with a :token segment, page or API, found or not', async () => {
    const tokenRoutes = app.servedRoutes().filter((r) => r.url.includes(':token'));
    const urls = tokenRoutes.map((r) => r.url);
    // The ones the issue and docs/security.md name are among them.
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/installation-status/:token',
        '/api/application-status/:token',
        '/api/calls/manage/:token',
        '/quote/:token',
        '/application/:token',
        '/call/:token',
      ]),
    );
    for (const r of tokenRoutes) {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      for (const method of methods.filter((m) => m === 'GET' || m === 'POST')) {
        const res = await app.inject({
          method,
          url: urlOf({ url: r.url } as Parameters<typeof urlOf>[0], { token: TOKENISH }),
          ...(method === 'POST' ? { payload: {} } : {}),
        } as InjectOptions);
        expect(res.statusCode, `${method} ${r.url}`).toBeLessThan(500);
        expect(res.headers['referrer-policy'], `${method} ${r.url}`).toBe('no-referrer');
      }
    }
  });

  it("the installation status on /api and on /trpc (jobs.statusPage), the call's and the applicant's tRPC queries", async () => {
    const rest = await app.inject({ url: `/api/installation-status/${TOKENISH}` });
    expect(rest.statusCode).toBe(404);
    expect(rest.headers['referrer-policy']).toBe('no-referrer');
    for (const path of ['jobs.statusPage', 'site.callByLink', 'site.applicationStatus']) {
      const res = await trpcGet(path, { token: TOKENISH });
      expect(res.statusCode, path).toBeLessThan(500);
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
    }
    // Batched, as the web client sends it.
    const batched = await app.inject({
      url: `/trpc/auth.user,jobs.statusPage?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { token: TOKENISH } }))}`,
    });
    expect(batched.headers['referrer-policy']).toBe('no-referrer');
    // The sign-in and invitation links' pages.
    for (const url of [`/login?token=${TOKENISH}`, `/admin/accept-invite?token=${TOKENISH}`]) {
      expect((await app.inject({ url })).headers['referrer-policy'], url).toBe('no-referrer');
    }
    // Other answers keep the default.
    expect((await app.inject({ url: '/api/openapi.json' })).headers['referrer-policy']).toBe(
      'strict-origin-when-cross-origin',
    );
  });
});

describe('/metrics hides as any unknown path does', () => {
  it('without the token and with a wrong one: the same status, type and HTML page as an unknown path', async () => {
    const unknown = await app.inject({ url: '/no-such-page-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const res = await app.inject({ url: '/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(res.body).toBe(unknown.body);
    }
    const ok = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
  });
});
