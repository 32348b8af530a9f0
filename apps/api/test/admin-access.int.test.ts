import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../src/http/routes';
import { restRoutes } from '../src/http/routes';
import { appRouter } from '../src/routers/index';
import { adminProcedure } from '../src/trpc/init';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';

/**
 * Walks the live tables, so an admin endpoint added later without protection fails here:
 * every REST route with access 'admin' and every tRPC procedure under `admin.`.
 */

let h: Harness;
let dealerCookie: string;
let adminCookie: string;
let dealerId: string;
beforeAll(async () => {
  h = await createHarness();
  const d = await createDealer(h.db, { status: 'approved' });
  dealerId = d.id;
  dealerCookie = await signInDealer(h.app, d.email);
  adminCookie = await signInAdmin(h.app);
});
afterAll(async () => {
  await h?.close();
});

const adminRoutes = restRoutes.filter((r) => r.access === 'admin');

function urlOf(route: HttpRoute): string {
  return route.url.replace(/:(\w+)/g, (_m, name: string) => (name === 'tier' ? 'Affiliate' : randomUUID()));
}

const inject = (route: HttpRoute, cookie?: string) =>
  h.app.inject({
    method: route.method,
    url: urlOf(route),
    headers: cookie ? { cookie } : {},
    ...(route.method === 'GET' ? {} : { payload: {} }),
  });

interface ProcDef {
  _def: { type: 'query' | 'mutation'; middlewares: unknown[] };
}
const ADMIN_MW = (adminProcedure as unknown as ProcDef)._def.middlewares.at(-1);
const adminProcs = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcDef>).filter(([p]) =>
  p.startsWith('admin.'),
);

const callTrpc = (path: string, type: 'query' | 'mutation', cookie?: string, input: object = {}) =>
  h.app.inject({
    method: type === 'query' ? 'GET' : 'POST',
    url: `/trpc/${path}${type === 'query' ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`,
    headers: { ...(cookie ? { cookie } : {}), ...(type === 'mutation' ? { 'content-type': 'application/json' } : {}) },
    ...(type === 'mutation' ? { payload: '{}' } : {}),
  });

describe('admin REST routes', () => {
  it('lists the spec paths', () => {
    const paths = adminRoutes.map((r) => `${r.method} ${r.url}`);
    for (const p of [
      'GET /api/call-schedules',
      'GET /api/admin/affiliate-tracking',
      'GET /api/admin/dealers',
      'GET /api/admin/dealer-metrics',
      'POST /api/admin/dealers/:id/approve',
      'POST /api/admin/dealers/:id/reject',
      'POST /api/admin/dealers/:id/status',
      'POST /api/admin/dealers/:id/upgrade-tier',
      'POST /api/admin/dealers/:id/send-approval-email',
      'POST /api/admin/dealers/:id/grant-access',
      'POST /api/admin/dealers/:id/reset-password',
      'POST /api/admin/dealers/:id/link-referral',
      'PUT /api/admin/first-order-forms/:tier',
      'POST /api/admin/clear-all-dealers',
      'PUT /api/admin/landing-videos/:videoId',
      'GET /api/admin/dealers/export',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it.each(adminRoutes.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s: 401 signed out, 403 as a dealer',
    async (_n, route) => {
      const out = await inject(route);
      expect(out.statusCode).toBe(401);
      const dealer = await inject(route, dealerCookie);
      expect(dealer.statusCode).toBe(403);
      expect(dealer.json().message).toBe('Access Denied: You need administrator privileges to access this page.');
    },
  );

  it('every admin route is documented in the OpenAPI document', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    for (const r of adminRoutes) {
      expect(doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()]).toBeDefined();
    }
  });
});

describe('admin tRPC procedures', () => {
  it('are all admin procedures', () => {
    expect(adminProcs.length).toBeGreaterThan(15);
    for (const [path, p] of adminProcs) {
      expect(p._def.middlewares, path).toContain(ADMIN_MW);
    }
  });

  it.each(adminProcs.map(([path, p]) => [path, p._def.type] as const))(
    '%s: 401 signed out, 403 as a dealer',
    async (path, type) => {
      expect((await callTrpc(path, type)).statusCode).toBe(401);
      expect((await callTrpc(path, type, dealerCookie)).statusCode).toBe(403);
    },
  );

  it('an admin passes the guard (reads answer 200)', async () => {
    for (const [path, p] of adminProcs) {
      if (p._def.type !== 'query' || path === 'admin.dealerTimeline') continue;
      // A dealer's detail view (issue 36) reads one dealer: a real one.
      const input = path === 'admin.dealer' ? { id: dealerId } : {};
      const res = await callTrpc(path, 'query', adminCookie, input);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
  });
});
