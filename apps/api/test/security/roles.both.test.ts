import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminRole, roleAllows } from '../../src/access';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from '../helpers';
import { fingerprint, inject, procedures, routes, trpc } from './support';

/**
 * The role matrix (issue 14): every admin procedure and every admin REST route, read from the
 * live router and REST table (so an endpoint added later is in it), against owner, reviewer,
 * viewer, a dealer and a visitor. A refused call changes nothing; an allowed one is not refused.
 */

let h: Harness;
const cookies: Partial<Record<AdminRole | 'dealer', string>> = {};

beforeAll(async () => {
  h = await createHarness();
  for (const role of ['owner', 'reviewer', 'viewer'] as const) {
    const username = `matrix-${role}`;
    cookies[role] = await signInAdmin(h.app, username);
    await h.db.updateTable('admins').set({ role }).where('username', '=', username).execute();
  }
  const dealer = await createDealer(h.db, { status: 'active', password: 'dealer-pass-1' });
  cookies.dealer = await signInDealer(h.app, dealer.email);
  // A harness on PGlite migrates in-process: on a loaded machine that alone can take a minute.
});
afterAll(async () => {
  await h?.close();
});

const PAYLOAD = { id: '00000000-0000-4000-8000-000000000000', status: 'approved', tier: 'Preferred' };
const WHO = ['anonymous', 'dealer', 'viewer', 'reviewer', 'owner'] as const;
type Who = (typeof WHO)[number];

/** What `who` must get from an endpoint that needs `role`: refused with 401 or 403, or let through. */
function expected(who: Who, role: AdminRole): 401 | 403 | 'allowed' {
  if (who === 'anonymous') return 401;
  if (who === 'dealer') return 403;
  return roleAllows(who, role) ? 'allowed' : 403;
}

function check(who: Who, label: string, role: AdminRole, status: number) {
  const want = expected(who, role);
  if (want === 'allowed') {
    expect([401, 403], `${who} ${label} (needs ${role}) was refused`).not.toContain(status);
    expect(status, `${who} ${label}`).toBeLessThan(500);
  } else {
    expect(status, `${who} ${label} (needs ${role})`).toBe(want);
  }
}

const headersOf = (who: Who): Record<string, string> => {
  const c = who === 'anonymous' ? undefined : cookies[who];
  return c ? { cookie: c } : {};
};

describe('every admin endpoint declares a role', () => {
  it('the builders set meta.role on every admin procedure and the table carries it on every admin route', () => {
    const admin = procedures().filter((p) => p.access === 'admin');
    expect(admin.length).toBeGreaterThan(40);
    for (const p of admin) expect(['viewer', 'reviewer', 'owner'], p.path).toContain(p.role);
    for (const r of routes().filter((x) => x.access === 'admin')) {
      expect(['viewer', 'reviewer', 'owner'], r.url).toContain(r.role);
    }
  });

  it('the roles the issue names: the known endpoints ask for the right one', () => {
    const role = (path: string) => procedures().find((p) => p.path === path)?.role;
    expect(role('admin.clearAllDealers')).toBe('owner');
    expect(role('team.invite')).toBe('owner');
    expect(role('team.setRole')).toBe('owner');
    expect(role('commissions.setRule')).toBe('owner');
    expect(role('commissions.createPayout')).toBe('owner');
    expect(role('admin.approve')).toBe('reviewer');
    expect(role('admin.reject')).toBe('reviewer');
    expect(role('admin.setCallStatus')).toBe('reviewer');
    expect(role('orders.record')).toBe('reviewer');
    expect(role('commissions.approve')).toBe('reviewer');
    expect(role('admin.dealers')).toBe('viewer');
    expect(role('activity.list')).toBe('viewer');
    expect(role('team.changePassword')).toBe('viewer');
    const rest = (url: string) => routes().find((r) => r.url === url)?.role;
    // No export of personal data for a viewer; payouts are the owner's.
    expect(rest('/api/admin/dealers/export')).toBe('reviewer');
    expect(rest('/api/admin/activity/export')).toBe('reviewer');
    expect(rest('/api/admin/payouts/:id/export')).toBe('owner');
    // Issue 39: the bank file and the tax report carry full account numbers and TINs.
    expect(rest('/api/admin/payouts/:id/ach')).toBe('owner');
    expect(rest('/api/admin/tax/1099-nec')).toBe('owner');
  });
});

describe('the role matrix', () => {
  for (const who of WHO) {
    it(`${who}: every admin tRPC procedure`, async () => {
      const admin = procedures().filter((p) => p.access === 'admin');
      for (const p of admin) {
        const refused = expected(who, p.role!) !== 'allowed';
        const before = refused ? await fingerprint(h.db) : null;
        const res = await trpc(h.app, p, p.type === 'query' ? undefined : PAYLOAD, headersOf(who));
        check(who, p.path, p.role!, res.statusCode);
        if (before) expect(await fingerprint(h.db), `${who} ${p.path} changed something`).toEqual(before);
      }
    });

    it(`${who}: every admin REST route`, async () => {
      for (const r of routes().filter((x) => x.access === 'admin')) {
        const refused = expected(who, r.role!) !== 'allowed';
        const before = refused ? await fingerprint(h.db) : null;
        const res = await inject(h.app, r, {
          headers: headersOf(who),
          // Path ids are random (urlOf): an allowed call finds nothing to act on, so it queues no
          // email whose sending would change the outbox under a later fingerprint.
          ...(r.method === 'GET' ? {} : { payload: PAYLOAD }),
        });
        check(who, `${r.method} ${r.url}`, r.role!, res.statusCode);
        if (before) expect(await fingerprint(h.db), `${who} ${r.method} ${r.url} changed something`).toEqual(before);
      }
    });
  }

  it('a role change applies to the next request (the role is read with the session)', async () => {
    const cookie = await signInAdmin(h.app, 'matrix-demoted');
    const clear = procedures().find((p) => p.path === 'team.list')!;
    expect((await trpc(h.app, clear, undefined, { cookie })).statusCode).toBe(200);
    await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'matrix-demoted').execute();
    expect((await trpc(h.app, clear, undefined, { cookie })).statusCode).toBe(403);
  });
});
