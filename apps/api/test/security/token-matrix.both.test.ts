import type { AnyProcedure } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/routers/index';
import type { Meta } from '../../src/trpc/init';
import { createHarness, type Harness, signInAdmin } from '../helpers';
import { fingerprint, inject, procedures, routes, trpc } from './support';

/**
 * The token matrix (issue 40's tokens, issue 45's findings 5 and 6): every admin procedure and every
 * admin REST route, read from the live router and REST table, called with an owner's read token and
 * read-write token. What the endpoint declares decides the answer, in one place (trpc/init.ts for a
 * procedure, http/serve.ts for a route): `sessionOnly` -> 403 to any token; a change with a read
 * token -> 403; anything else is let through. A refused call changes nothing. Managing the team and
 * the files with full account numbers and TINs are declared session-only.
 */

let h: Harness;
let owner = '';
const tokens: Record<'read' | 'read-write', string> = { read: '', 'read-write': '' };

beforeAll(async () => {
  h = await createHarness();
  owner = await signInAdmin(h.app, 'token-matrix-owner');
  for (const scope of ['read', 'read-write'] as const) {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/admin/api-tokens',
      headers: { cookie: owner },
      payload: { name: `matrix ${scope}`, scope, expiresInDays: 30 },
    });
    expect(res.statusCode, res.body).toBe(200);
    tokens[scope] = res.json().token;
  }
});
afterAll(async () => {
  await h?.close();
});

const PAYLOAD = { id: '00000000-0000-4000-8000-000000000000', status: 'approved', tier: 'Preferred' };
const metaOf = (path: string) =>
  ((appRouter._def.procedures as unknown as Record<string, AnyProcedure>)[path]?._def.meta ?? {}) as Meta;
const bearer = (scope: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[scope]}` });

function expected(scope: keyof typeof tokens, sessionOnly: boolean, writes: boolean): 403 | 'allowed' {
  if (sessionOnly) return 403;
  if (writes && scope === 'read') return 403;
  return 'allowed';
}

function check(label: string, want: 403 | 'allowed', status: number) {
  if (want === 'allowed') {
    expect([401, 403], `${label} was refused`).not.toContain(status);
    expect(status, label).toBeLessThan(500);
  } else expect(status, label).toBe(403);
}

describe('what is declared session-only (issue 45)', () => {
  it('team management and the files with full identifiers are declared session-only', () => {
    for (const p of ['team.invite', 'team.setRole', 'team.remove', 'team.revokeInvitation']) {
      expect(metaOf(p).sessionOnly, p).toBe(true);
    }
    const rest = (url: string) => routes().find((r) => r.url === url);
    expect(rest('/api/admin/payouts/:id/ach')?.sessionOnly).toBe(true);
    expect(rest('/api/admin/tax/1099-nec')?.sessionOnly).toBe(true);
    // A generated route carries its procedure's declaration.
    expect(rest('/api/admin/team/invitations')?.sessionOnly).toBe(true);
    // And the app serves them with it (the route config the check reads).
    const served = h.app.servedRoutes().filter((r) => r.sessionOnly);
    expect(served.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/api/admin/payouts/:id/ach', '/api/admin/tax/1099-nec', '/api/admin/team/:id']),
    );
  });
});

describe('the token matrix', () => {
  for (const scope of ['read', 'read-write'] as const) {
    it(`${scope} token: every admin tRPC procedure`, async () => {
      const admin = procedures().filter((p) => p.access === 'admin');
      expect(admin.length).toBeGreaterThan(40);
      for (const p of admin) {
        const want = expected(scope, metaOf(p.path).sessionOnly === true, p.type !== 'query');
        const before = want === 403 ? await fingerprint(h.db) : null;
        const res = await trpc(h.app, p, p.type === 'query' ? undefined : PAYLOAD, bearer(scope));
        check(`${scope} ${p.path}`, want, res.statusCode);
        if (before) expect(await fingerprint(h.db), `${scope} ${p.path} changed something`).toEqual(before);
      }
    });

    it(`${scope} token: every admin REST route`, async () => {
      for (const r of routes().filter((x) => x.access === 'admin')) {
        const want = expected(scope, r.sessionOnly === true, r.method !== 'GET');
        const before = want === 403 ? await fingerprint(h.db) : null;
        const res = await inject(h.app, r, {
          headers: bearer(scope),
          ...(r.method === 'GET' ? {} : { payload: PAYLOAD }),
        });
        check(`${scope} ${r.method} ${r.url}`, want, res.statusCode);
        if (before) expect(await fingerprint(h.db), `${scope} ${r.method} ${r.url} changed something`).toEqual(before);
      }
    });
  }
});

describe("the review's scenarios", () => {
  it('a read-write token cannot invite an owner (REST or tRPC); the signed-in owner can', async () => {
    const invite = { email: 'token-made-owner@example.com', role: 'owner' };
    const viaRest = await h.app.inject({
      method: 'POST',
      url: '/api/admin/team/invitations',
      headers: bearer('read-write'),
      payload: invite,
    });
    expect(viaRest.statusCode, viaRest.body).toBe(403);
    const viaTrpc = await trpc(h.app, { path: 'team.invite', type: 'mutation' }, invite, bearer('read-write'));
    expect(viaTrpc.statusCode).toBe(403);
    const made = await h.db.selectFrom('adminInvitations').selectAll().where('email', '=', invite.email).execute();
    expect(made).toEqual([]);
    const bySession = await h.app.inject({
      method: 'POST',
      url: '/api/admin/team/invitations',
      headers: { cookie: owner },
      payload: invite,
    });
    expect(bySession.statusCode, bySession.body).toBe(200);
  });

  it('a token of either scope downloads neither the NACHA file nor the 1099-NEC report; the signed-in owner is let through', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const scope of ['read', 'read-write'] as const) {
      expect((await h.app.inject({ url: `/api/admin/payouts/${id}/ach`, headers: bearer(scope) })).statusCode).toBe(
        403,
      );
      expect(
        (await h.app.inject({ url: '/api/admin/tax/1099-nec?year=2026', headers: bearer(scope) })).statusCode,
      ).toBe(403);
    }
    // The owner's session reaches the handler: payment settings first (409), or an unknown batch (404).
    expect([404, 409]).toContain(
      (await h.app.inject({ url: `/api/admin/payouts/${id}/ach`, headers: { cookie: owner } })).statusCode,
    );
    expect([200, 409]).toContain(
      (await h.app.inject({ url: '/api/admin/tax/1099-nec?year=2026', headers: { cookie: owner } })).statusCode,
    );
    // The check register (no full identifiers) stays readable with a read token.
    expect((await h.app.inject({ url: `/api/admin/payouts/${id}/checks`, headers: bearer('read') })).statusCode).toBe(
      404,
    );
  });
});
