import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { type HttpRoute, handWrittenRoutes, restRoutes } from '../src/http/routes';
import { serveRoutes, undeclared } from '../src/http/serve';
import { siteRoutes } from '../src/http/site';
import { webRoutes } from '../src/http/web';
import { GENEROUS_LIMITS, testConfig } from './helpers';

/**
 * Every HTTP route declares its access (http/route.ts makes the field required; these check it at
 * run time, where a cast or a route registered beside the table would slip past the type), and
 * the app refuses to start with one that does not.
 */

let database: TestDatabase;
let webRoot: string;

beforeAll(async () => {
  database = await createTestDatabase();
  webRoot = mkdtempSync(join(tmpdir(), 'dn-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>shell</title>');
  writeFileSync(join(webRoot, 'favicon.svg'), '<svg/>');
});
afterAll(async () => {
  await database?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const build = () => buildApp({ config: testConfig(), database, limits: GENEROUS_LIMITS, logger: false, webRoot });

describe('declared access', () => {
  it('every route of the tables declares its access, and every admin route its least role', () => {
    const tables: HttpRoute[] = [...restRoutes, ...siteRoutes(database, {}), ...webRoutes()];
    const refused = tables.flatMap((r) => {
      const why = undeclared({ method: r.method, url: r.url, config: { access: r.access, role: r.role } });
      return why ? [why] : [];
    });
    expect(refused).toEqual([]);
    // The hand-written /api routes: the CSV downloads, the webhook, and one-click unsubscribe (page and RFC 8058 POST).
    expect(handWrittenRoutes.map((r) => `${r.method} ${r.url} ${r.access} ${r.role ?? ''}`.trim())).toEqual([
      'GET /api/admin/dealers/export admin reviewer',
      'POST /api/integrations/orders public',
      'GET /api/admin/payouts/:id/export admin owner',
      'GET /api/admin/activity/export admin reviewer',
      'GET /api/dealer/agreement/pdf dealer',
      'GET /api/admin/dealers/:id/agreement/pdf admin reviewer',
      'GET /api/email/unsubscribe public',
      'POST /api/email/unsubscribe public',
      'GET /api/admin/payouts/:id/ach admin owner',
      'GET /api/admin/payouts/:id/checks admin owner',
      'GET /api/admin/tax/1099-nec admin owner',
      'GET /api/dealer/statement/download dealer',
      // Issue 45: the compliance document upload (multipart) and its downloads.
      'POST /api/dealer/compliance/documents dealer',
      'GET /api/dealer/compliance/documents/:id/file dealer',
      'GET /api/admin/compliance/documents/:id/file admin reviewer',
    ]);
  });

  it('every route the app serves carries a declared access: the tables, /trpc, health, the web app and its files', async () => {
    const app = await build();
    try {
      await app.ready();
      const served = app.servedRoutes();
      const missing = served.filter((r) => undeclared({ ...r, config: r }) !== null);
      expect(missing).toEqual([]);
      const urls = new Set(served.map((r) => r.url));
      for (const url of ['/healthz', '/readyz', '/api/openapi.json', '/trpc/:path', '/', '/admin', '/favicon.svg']) {
        expect(urls, url).toContain(url);
      }
      for (const r of restRoutes) {
        expect(served, `${r.method} ${r.url}`).toContainEqual(
          expect.objectContaining({ method: r.method, url: r.url, access: r.access, role: r.role }),
        );
      }
    } finally {
      await app.close();
    }
  });

  it('an app with a route that declares no access refuses to start, naming it', async () => {
    const app = await build();
    app.get('/api/undeclared', async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow('GET /api/undeclared declares no access');
    await app.close().catch(() => undefined);
  });

  it('serveRoutes refuses a route without an access, or an admin route without its role', async () => {
    const handle = () => ({ ok: true });
    const noAccess = { method: 'GET', url: '/x', summary: 'x', handle } as unknown as HttpRoute;
    const noRole = { method: 'GET', url: '/y', access: 'admin', summary: 'y', handle } as unknown as HttpRoute;
    for (const [route, why] of [
      [noAccess, 'GET /x declares no access'],
      [noRole, 'GET /y is an admin route without its least role'],
    ] as const) {
      const app = Fastify();
      await expect(app.register(serveRoutes, { deps: {} as never, routes: [route] }).ready()).rejects.toThrow(why);
      await app.close().catch(() => undefined);
    }
  });
});
