import { DEALER_RECORD } from '@dn/db/queries/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createContextInner } from '../src/context';
import { appRouter } from '../src/routers';
import { LINK_EXISTS, RECRUITER_ID_TAKEN } from '../src/services/affiliate/links';
import { maskEmail } from '../src/services/affiliate/stats';
import { createDealer, harnessForFile, signInAdmin, signInDealer, uniqueEmail } from './helpers';

const h = harnessForFile();
let admin: string;
beforeAll(async () => {
  admin = await signInAdmin(h.app);
});

const get = (url: string, cookie?: string) => h.app.inject({ url, ...(cookie ? { headers: { cookie } } : {}) });
const createLink = (recruiterId: unknown, cookie: string) =>
  h.app.inject({ method: 'POST', url: '/api/affiliate/create-link', payload: { recruiterId }, headers: { cookie } });

async function dealerWithCookie(over: Parameters<typeof createDealer>[1] = {}) {
  const d = await createDealer(h.db, over);
  return { ...d, cookie: await signInDealer(h.app, d.email, d.password) };
}

let seq = 0;
const rid = (p = 'rec') => `${p}${Date.now().toString(36).slice(-5)}${++seq}`;

describe('authorization of the dealer portal', () => {
  const dealerGets = ['/api/dealer/info', '/api/first-order-forms', '/api/affiliate/stats'];
  it.each(dealerGets)('GET %s: 401 signed out, 403 for an admin', async (url) => {
    expect((await get(url)).statusCode).toBe(401);
    const asAdmin = await get(url, admin);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe('This is for dealer accounts');
  });

  it('POST /api/affiliate/create-link: 401 signed out, 403 for an admin, nothing stored', async () => {
    const id = rid();
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/affiliate/create-link', payload: { recruiterId: id } }))
        .statusCode,
    ).toBe(401);
    expect((await createLink(id, admin)).statusCode).toBe(403);
    const rows = await h.db.selectFrom('affiliateLinks').select('id').where('recruiterId', '=', id).execute();
    expect(rows).toHaveLength(0);
  });
});

describe('GET /api/dealer/info', () => {
  it("answers the signed-in dealer's own details and never a hash", async () => {
    const d = await dealerWithCookie({ fullName: 'Ivy Info', companyName: 'Ivy Co', tier: 'Preferred' });
    const res = await get('/api/dealer/info', d.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: d.id,
      fullName: 'Ivy Info',
      companyName: 'Ivy Co',
      email: d.email,
      tier: 'Preferred',
      status: 'approved',
      accessGranted: true,
    });
    expect(res.json().createdAt).toBeTruthy();
    expect(res.body).not.toMatch(/argon2|"password"/);
  });

  it('answers exactly the documented fields, as they are now, not as they were at sign-in', async () => {
    const d = await dealerWithCookie({ companyName: 'Before Co' });
    await h.db.updateTable('dealers').set({ companyName: 'After Co', totalOrders: 3 }).where('id', '=', d.id).execute();
    const res = await get('/api/dealer/info', d.cookie);
    expect(Object.keys(res.json())).toEqual([...DEALER_RECORD]);
    expect(res.json()).toMatchObject({ companyName: 'After Co', totalOrders: 3 });
  });

  it('ignores any id in the query: it is always the signed-in dealer', async () => {
    const a = await dealerWithCookie();
    const b = await createDealer(h.db);
    const res = await get(`/api/dealer/info?id=${b.id}&dealerId=${b.id}`, a.cookie);
    expect(res.json().id).toBe(a.id);
  });
});

describe('GET /api/first-order-forms', () => {
  it("answers the form of the dealer's tier", async () => {
    const url = 'https://docs.google.com/forms/d/e/abc/viewform?embedded=true';
    await h.db
      .updateTable('firstOrderForms')
      .set({ formUrl: url, isRequired: false })
      .where('tier', '=', 'Affiliate')
      .execute();
    const d = await dealerWithCookie({ tier: 'Affiliate' });
    const res = await get('/api/first-order-forms', d.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tier: 'Affiliate', formUrl: url, isRequired: false });
    const p = await dealerWithCookie({ tier: 'Preferred' });
    expect((await get('/api/first-order-forms', p.cookie)).json()).toEqual({
      tier: 'Preferred',
      formUrl: null,
      isRequired: true,
    });
  });
});

describe('POST /api/affiliate/create-link', () => {
  it('creates one link per dealer with a generated code and the PUBLIC_URL share link', async () => {
    const d = await dealerWithCookie();
    const id = rid('Sam_');
    const res = await createLink(`  ${id}  `, d.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ recruiterId: id, shareUrl: `https://dealers.test/?r=${id}` });
    expect(res.json().affiliateCode).toMatch(/^[A-Z2-9]{10}$/);
    const row = await h.db.selectFrom('dealers').select('recruiterId').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.recruiterId).toBe(id);
    const again = await createLink(rid(), d.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(LINK_EXISTS);
  });

  it('refuses a recruiter id taken by another dealer, whatever its case, with 409', async () => {
    const a = await dealerWithCookie();
    const b = await dealerWithCookie();
    const id = rid('Taken');
    expect((await createLink(id, a.cookie)).statusCode).toBe(200);
    const res = await createLink(id.toUpperCase(), b.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(RECRUITER_ID_TAKEN);
    const stats = await get('/api/affiliate/stats', b.cookie);
    expect(stats.json()).toMatchObject({ hasAffiliateLink: false, recruiterId: null });
  });

  it('refuses bad recruiter ids in the schema words, storing nothing', async () => {
    const d = await dealerWithCookie();
    for (const [value, message] of [
      ['', 'Recruiter ID is required'],
      ['ab', 'Recruiter ID must be 3-20 characters, letters, numbers, underscore or dash only'],
      ['has space', 'Recruiter ID must be 3-20 characters, letters, numbers, underscore or dash only'],
      ['x'.repeat(21), 'Recruiter ID must be 3-20 characters, letters, numbers, underscore or dash only'],
      [42, 'Recruiter ID is required'],
    ] as const) {
      const res = await createLink(value, d.cookie);
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const rows = await h.db.selectFrom('affiliateLinks').select('id').where('dealerId', '=', d.id).execute();
    expect(rows).toHaveLength(0);
  });
});

describe('GET /api/affiliate/stats', () => {
  it("lists only the dealer's own 5 most recent referrals, emails masked", async () => {
    const rec = await dealerWithCookie({ fullName: 'Rex Recruiter' });
    const other = await dealerWithCookie({ fullName: 'Olga Other' });
    const id = rid('rex');
    await createLink(id, rec.cookie);
    const base = Date.now() - 60_000;
    for (let i = 0; i < 6; i++) {
      const r = await createDealer(h.db, {
        fullName: `Referral ${i}`,
        email: `j${i}.${uniqueEmail('ref')}`,
        status: 'pending',
        referredBy: rec.id,
        tier: 'Authorized',
      });
      await h.db
        .updateTable('dealers')
        .set({ createdAt: new Date(base + i * 1000), referralType: i % 2 ? 'automatic' : 'manual' })
        .where('id', '=', r.id)
        .execute();
    }
    await createDealer(h.db, { fullName: 'Not Rex', referredBy: other.id });

    const res = await get('/api/affiliate/stats', rec.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      hasAffiliateLink: true,
      recruiterId: id,
      shareUrl: `https://dealers.test/?r=${id}`,
      totalReferrals: 6,
    });
    expect(body.referrals.map((r: { fullName: string }) => r.fullName)).toEqual([
      'Referral 5',
      'Referral 4',
      'Referral 3',
      'Referral 2',
      'Referral 1',
    ]);
    expect(body.referrals[0]).toMatchObject({
      referralType: 'automatic',
      referredByName: 'Rex Recruiter',
      tier: 'Authorized',
    });
    expect(body.referrals[1].referralType).toBe('manual');
    for (const r of body.referrals) expect(r.email).toMatch(/^j\*\*\*@example\.com$/);
    expect(res.body).not.toContain('Not Rex');

    const theirs = (await get('/api/affiliate/stats', other.cookie)).json();
    expect(theirs.hasAffiliateLink).toBe(false);
    expect(theirs.referrals.map((r: { fullName: string }) => r.fullName)).toEqual(['Not Rex']);
  });

  it('masks emails keeping the first letter and the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskEmail('x@a.io')).toBe('x***@a.io');
    expect(maskEmail('broken')).toBe('***');
  });
});

describe('tRPC twins', () => {
  it('call the same services, scoped to the caller, and refuse admins', async () => {
    const d = await createDealer(h.db, { fullName: 'Tina Trpc' });
    const user = {
      id: d.id,
      role: 'dealer' as const,
      username: d.email,
      fullName: 'Tina Trpc',
      email: d.email,
      status: 'approved' as const,
      tier: 'Affiliate' as const,
    };
    const caller = appRouter.createCaller(createContextInner(h.app.deps, { user }));
    expect(await caller.account.info()).toMatchObject({ id: d.id, fullName: 'Tina Trpc' });
    const id = rid('trpc');
    expect(await caller.account.createAffiliateLink({ recruiterId: id })).toMatchObject({ recruiterId: id });
    expect(await caller.account.affiliateStats()).toMatchObject({ hasAffiliateLink: true, recruiterId: id });
    expect(await caller.account.firstOrderForm()).toMatchObject({ tier: 'Affiliate' });
    await expect(caller.account.createAffiliateLink({ recruiterId: rid() })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: LINK_EXISTS,
    });
    const anon = appRouter.createCaller(createContextInner(h.app.deps));
    await expect(anon.account.info()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const asAdmin = appRouter.createCaller(
      createContextInner(h.app.deps, { user: { ...user, role: 'admin', status: null, tier: null } }),
    );
    await expect(asAdmin.account.affiliateStats()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const answer = await anon.account.resetPassword({ email: uniqueEmail('nobody') });
    expect(answer.ok).toBe(true);
  });
});
