import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer, uniqueEmail } from '../helpers';
import { application, fingerprint, inject, procedures, routes, trpc } from './support';

/** The authorization matrix, generated from the live REST table and tRPC router; IDOR; mass assignment. */

let h: Harness;
let adminCookie: string;
let dealerCookie: string;
let dealerA: { id: string; email: string };
let dealerB: { id: string; email: string };

beforeAll(async () => {
  h = await createHarness();
  adminCookie = await signInAdmin(h.app);
  dealerA = await createDealer(h.db, { fullName: 'Alice Alpha' });
  dealerB = await createDealer(h.db, { fullName: 'Bob Bravo', companyName: 'Bravo Secret Co' });
  dealerCookie = await signInDealer(h.app, dealerA.email);
});
afterAll(async () => {
  await h?.close();
});

const PAYLOAD = { id: '00000000-0000-4000-8000-000000000000', status: 'approved', tier: 'Preferred' };

describe('the route tables are consistent', () => {
  it('every /api/admin/* path but the login is admin-only, and every admin.* procedure too', () => {
    for (const r of routes()) {
      if (r.url.startsWith('/api/admin/') && r.url !== '/api/admin/login') expect(r.access, r.url).toBe('admin');
    }
    for (const p of procedures()) if (p.path.startsWith('admin.')) expect(p.access, p.path).toBe('admin');
    // Every procedure that reads or writes a dealer's own data is built on dealerProcedure.
    for (const p of procedures()) {
      if (/^account\.(info|firstOrderForm|createAffiliateLink|affiliateStats)$/.test(p.path)) {
        expect(p.access, p.path).toBe('dealer');
      }
    }
  });
});

describe('authorization matrix', () => {
  const protectedRoutes = () => routes().filter((r) => r.access !== 'public');
  const protectedProcs = () => procedures().filter((p) => p.access !== 'public');

  it('signed out: every dealer and admin path answers 401 and changes nothing', async () => {
    expect(protectedRoutes().length).toBeGreaterThan(0);
    const before = await fingerprint(h.db);
    for (const r of protectedRoutes()) {
      const res = await inject(h.app, r, r.method === 'GET' ? {} : { payload: PAYLOAD });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
    for (const p of protectedProcs()) {
      const res = await trpc(h.app, p, p.type === 'query' ? undefined : PAYLOAD);
      expect(res.statusCode, p.path).toBe(401);
    }
    expect(await fingerprint(h.db)).toEqual(before);
  });

  it('as a dealer: every admin path and procedure answers 403 and changes nothing', async () => {
    const before = await fingerprint(h.db);
    for (const r of routes().filter((x) => x.access === 'admin')) {
      const res = await inject(h.app, r, {
        headers: { cookie: dealerCookie },
        ...(r.method === 'GET' ? {} : { payload: { ...PAYLOAD, confirm: 'DELETE ALL' } }),
        params: { id: dealerB.id },
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
    for (const p of procedures().filter((x) => x.access === 'admin')) {
      const res = await trpc(h.app, p, p.type === 'query' ? undefined : { ...PAYLOAD, id: dealerB.id }, {
        cookie: dealerCookie,
      });
      expect(res.statusCode, p.path).toBe(403);
    }
    expect(await fingerprint(h.db)).toEqual(before);
  });

  it('as an admin: dealer-only paths and procedures answer 403', async () => {
    for (const r of routes().filter((x) => x.access === 'dealer')) {
      const res = await inject(h.app, r, {
        headers: { cookie: adminCookie },
        ...(r.method === 'GET' ? {} : { payload: { recruiterId: 'admin_link' } }),
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
    for (const p of procedures().filter((x) => x.access === 'dealer')) {
      const res = await trpc(h.app, p, p.type === 'query' ? undefined : { recruiterId: 'admin_link' }, {
        cookie: adminCookie,
      });
      expect(res.statusCode, p.path).toBe(403);
    }
  });
});

describe('IDOR: a dealer cannot reach another dealer by naming its id', () => {
  it("no dealer read returns the other dealer's data, whatever id is passed", async () => {
    // Give B a link and a referral, so there is something of B's to leak.
    await h.db
      .insertInto('affiliateLinks')
      .values({ recruiterId: 'bravo_rec', dealerId: dealerB.id, affiliateCode: 'bravo_code', updatedAt: new Date() })
      .execute();
    const referred = await createDealer(h.db, { fullName: 'Charlie Referred', referredBy: dealerB.id });
    await h.db.updateTable('dealers').set({ recruiterId: 'bravo_rec' }).where('id', '=', referred.id).execute();
    const ids = { id: dealerB.id, dealerId: dealerB.id, userId: dealerB.id, recruiterId: 'bravo_rec' };
    const qs = new URLSearchParams(ids).toString();
    const leaks = (body: string) =>
      [dealerB.email, dealerB.id, 'Bravo', 'bravo_rec', referred.email, 'Charlie'].some((s) => body.includes(s));
    for (const r of routes().filter((x) => x.access === 'dealer' && x.method === 'GET')) {
      const res = await h.app.inject({ url: `${r.url}?${qs}`, headers: { cookie: dealerCookie } });
      expect(res.statusCode, r.url).toBeLessThan(500);
      expect(leaks(res.body), r.url).toBe(false);
    }
    for (const p of procedures().filter((x) => x.access === 'dealer' && x.type === 'query')) {
      const res = await trpc(h.app, p, ids, { cookie: dealerCookie });
      expect(res.statusCode, p.path).toBeLessThan(500);
      expect(leaks(res.body), p.path).toBe(false);
    }
    const info = await h.app.inject({ url: `/api/dealer/info?${qs}`, headers: { cookie: dealerCookie } });
    expect(info.json().email).toBe(dealerA.email);
  });

  it("an affiliate link created with another dealer's id belongs to the caller", async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      headers: { cookie: dealerCookie },
      payload: { recruiterId: 'idor_probe', dealerId: dealerB.id, id: dealerB.id },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const rows = await h.db
      .selectFrom('affiliateLinks')
      .select(['dealerId'])
      .where('recruiterId', '=', 'idor_probe')
      .execute();
    expect(rows).toEqual([{ dealerId: dealerA.id }]);
  });
});

describe('mass assignment', () => {
  const privileged = {
    status: 'approved',
    accessGranted: true,
    role: 'admin',
    password: 'attacker-chosen-1',
    approvedBy: 'attacker',
    approvalDate: '2020-01-01T00:00:00.000Z',
    totalRevenue: '999999.00',
    totalOrders: 99,
    rejectionReason: 'x',
    externalCrmId: 'x',
    id: '00000000-0000-4000-8000-000000000001',
    createdAt: '2000-01-01T00:00:00.000Z',
  };

  for (const via of ['rest', 'trpc'] as const) {
    it(`signup (${via}) with status, accessGranted, role, password and the like stores a plain pending application`, async () => {
      const email = uniqueEmail('mass');
      const body = application(email, privileged);
      const res =
        via === 'rest'
          ? await h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: body })
          : await trpc(h.app, { path: 'site.signup', type: 'mutation' }, body);
      expect(res.statusCode, res.body).toBeLessThan(300);
      const d = await h.db
        .selectFrom('dealers')
        .select([
          'id',
          'status',
          'accessGranted',
          'password',
          'approvedBy',
          'approvalDate',
          'totalRevenue',
          'totalOrders',
          'createdAt',
        ])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(d.status).toBe('pending');
      expect(d.accessGranted).toBe(false);
      expect(d.password).toBeNull();
      expect(d.approvedBy).toBeNull();
      expect(d.approvalDate).toBeNull();
      expect(Number(d.totalRevenue)).toBe(0);
      expect(d.totalOrders).toBe(0);
      expect(d.id).not.toBe(privileged.id);
      expect(new Date(d.createdAt).getFullYear()).toBeGreaterThan(2020);
      // Nobody can sign in with a password slipped into the application.
      const login = await h.app.inject({
        method: 'POST',
        url: '/api/dealer/login',
        payload: { username: email, password: privileged.password },
      });
      expect(login.statusCode).toBe(401);
      expect(await h.db.selectFrom('admins').select('id').where('username', '=', email).execute()).toEqual([]);
    });
  }

  it("a dealer's own calls with status, tier, role or accessGranted change nothing of the account", async () => {
    const pending = await createDealer(h.db, { status: 'approved', tier: 'Affiliate' });
    const cookie = await signInDealer(h.app, pending.email);
    const before = await h.db.selectFrom('dealers').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
    for (const p of procedures().filter((x) => x.access === 'dealer' && x.type === 'mutation')) {
      await trpc(h.app, p, { recruiterId: `ma_${p.path.length}`, ...privileged, tier: 'Preferred' }, { cookie });
    }
    for (const r of routes().filter((x) => x.access === 'dealer' && x.method !== 'GET')) {
      await inject(h.app, r, {
        headers: { cookie },
        payload: { recruiterId: 'ma_rest', ...privileged, tier: 'Preferred' },
      });
    }
    const after = await h.db.selectFrom('dealers').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
    for (const k of [
      'status',
      'tier',
      'accessGranted',
      'password',
      'approvedBy',
      'totalRevenue',
      'totalOrders',
    ] as const) {
      expect(after[k], k).toEqual(before[k]);
    }
    const me = await h.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(me.json().role).toBe('dealer');
  });
});
