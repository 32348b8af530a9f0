import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';

// Issue 37, "Homeowner truth: dated claims" (decision 0930).
const DAY = 86_400_000;
const clock = new ShiftedClock();
/** Moves the clock to `iso` (an instant). */
const setNow = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());

let h: Harness;
let owner: string;
let reviewer: string;
let dealer: string;
beforeAll(async () => {
  h = await createHarness({ clock });
  owner = await signInAdmin(h.app, 'claims-owner');
  await signInAdmin(h.app, 'claims-reviewer');
  await h.db.updateTable('admins').set({ role: 'reviewer' }).where('username', '=', 'claims-reviewer').execute();
  reviewer = await signInAdmin(h.app, 'claims-reviewer');
  const d = await createDealer(h.db, { status: 'approved' });
  dealer = await signInDealer(h.app, d.email);
});
afterAll(async () => {
  await h?.close();
});

const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: object, cookie?: string) =>
  h.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
const get = (url: string, cookie?: string) => h.app.inject({ url, headers: cookie ? { cookie } : {} });
const publicTexts = async (query = '') =>
  ((await get(`/api/claims${query}`)).json().items as { text: string }[]).map((c) => c.text);
const count = async () =>
  Number(
    (
      await h.db
        .selectFrom('homeownerClaims')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const FEDERAL = /Federal tax credit/;
const texasRebate = {
  text: 'Texas utility attic rebate',
  kind: 'incentive',
  amount: '$400',
  source: 'https://example.org/tx-rebate',
  effectiveFrom: '2026-01-01',
  effectiveUntil: '2026-12-31',
  state: 'tx',
};

describe('dated claims', () => {
  it('ships the federal credit ending 2025-12-31: shown on its last day (US Eastern), gone the day after', async () => {
    setNow('2025-12-31T23:00:00-05:00');
    const before = (await get('/api/claims')).json();
    expect(before.today).toBe('2025-12-31');
    expect(before.items).toEqual([
      expect.objectContaining({ kind: 'incentive', percent: '30.00', effectiveUntil: '2025-12-31', amount: null }),
    ]);
    expect(before.items[0].source).toMatch(/Public Law 119-21/);
    clock.advance(DAY / 12); // 2026-01-01 01:00 Eastern
    expect((await get('/api/claims')).json().items).toEqual([]);
    // Owners still see it, out of effect.
    const all = (await get('/api/admin/claims', owner)).json();
    expect(all.today).toBe('2026-01-01');
    expect(all.items.map((c: { text: string }) => c.text)).toEqual([expect.stringMatching(FEDERAL)]);
  });

  it('an owner adds a state incentive: normalised, audited, shown only in its dates and for a ZIP of that state', async () => {
    setNow('2026-06-01T12:00:00Z');
    const res = await send('POST', '/api/admin/claims', texasRebate, owner);
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ amount: '400.00', percent: null, state: 'TX', zipPrefixes: [], kind: 'incentive' });
    const utility = await send(
      'POST',
      '/api/admin/claims',
      {
        text: 'Austin utility rebate',
        kind: 'incentive',
        percent: '10',
        cap: '250',
        source: 'Austin Energy tariff 2026',
        zipPrefixes: '787, 78610',
      },
      owner,
    );
    expect(utility.json()).toMatchObject({ percent: '10.00', cap: '250.00', zipPrefixes: ['787', '78610'] });
    expect(await publicTexts()).toEqual([]); // neither is for everyone
    expect(await publicTexts('?zip=75001')).toEqual(['Texas utility attic rebate']); // Dallas: Texas
    expect(await publicTexts('?zip=78701')).toEqual(['Austin utility rebate', 'Texas utility attic rebate']);
    expect(await publicTexts('?zip=90210')).toEqual([]); // California
    setNow('2027-01-01T12:00:00Z');
    expect(await publicTexts('?zip=75001')).toEqual([]);
    setNow('2025-12-31T12:00:00Z');
    expect(await publicTexts('?zip=75001')).toEqual([expect.stringMatching(FEDERAL)]);
    const audit = await h.db
      .selectFrom('auditLogs')
      .select(['message'])
      .where('eventType', '=', 'claim.created')
      .execute();
    expect(audit.map((a) => a.message)).toEqual([
      'claims-owner added the incentive "Texas utility attic rebate"',
      'claims-owner added the incentive "Austin utility rebate"',
    ]);
  });

  it('an owner edits and removes one; an unknown id is 404', async () => {
    setNow('2026-06-01T12:00:00Z');
    const [row] = (await get('/api/admin/claims', owner))
      .json()
      .items.filter((c: { text: string }) => c.text === 'Texas utility attic rebate');
    const edited = await send(
      'PUT',
      `/api/admin/claims/${row.id}`,
      { ...texasRebate, effectiveUntil: '2026-05-31' },
      owner,
    );
    expect(edited.statusCode).toBe(200);
    expect(await publicTexts('?zip=75001')).toEqual([]); // ended yesterday
    expect((await send('DELETE', `/api/admin/claims/${row.id}`, {}, owner)).statusCode).toBe(200);
    expect((await send('DELETE', `/api/admin/claims/${row.id}`, {}, owner)).statusCode).toBe(404);
    expect((await send('PUT', `/api/admin/claims/${randomUUID()}`, texasRebate, owner)).statusCode).toBe(404);
  });

  it.each([
    [{ ...texasRebate, text: '  ' }, 'text', /Text is required/],
    [{ ...texasRebate, kind: 'promise' }, 'kind', /claim or incentive/],
    [{ ...texasRebate, percent: '30' }, 'amount', /percent or an amount/],
    [{ ...texasRebate, amount: undefined, percent: '130' }, 'percent', /at most 100/],
    [{ ...texasRebate, cap: '100' }, 'cap', /only to a percent/],
    [{ ...texasRebate, source: 'http://example.org' }, 'source', /https/],
    [{ ...texasRebate, effectiveUntil: '2025-02-30' }, 'effectiveUntil', /like 2026-01-31/],
    [{ ...texasRebate, effectiveFrom: '2027-01-01' }, 'effectiveUntil', /on or after/],
    [{ ...texasRebate, state: 'XX' }, 'state', /two-letter/],
    [{ ...texasRebate, zipPrefixes: ['78', 'abcde'] }, 'zipPrefixes', /3 to 5 digits/],
  ])('refuses bad input naming the field, storing nothing (%#)', async (payload, field, message) => {
    const n = await count();
    const res = await send('POST', '/api/admin/claims', payload, owner);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(message);
    expect(Object.keys(res.json().fieldErrors ?? {})).toContain(field);
    expect(await count()).toBe(n);
  });

  it('a bad ZIP on the public read is a 400 naming zip', async () => {
    const res = await get('/api/claims?zip=12');
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toHaveProperty('zip');
  });

  it('only owners edit: 401 signed out, 403 for a dealer and a reviewer, who may still read the list', async () => {
    const n = await count();
    expect((await send('POST', '/api/admin/claims', texasRebate)).statusCode).toBe(401);
    expect((await send('POST', '/api/admin/claims', texasRebate, dealer)).statusCode).toBe(403);
    expect((await send('POST', '/api/admin/claims', texasRebate, reviewer)).statusCode).toBe(403);
    const [any] = (await get('/api/admin/claims', owner)).json().items;
    expect((await send('PUT', `/api/admin/claims/${any.id}`, texasRebate, reviewer)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/admin/claims/${any.id}`, {}, reviewer)).statusCode).toBe(403);
    expect((await get('/api/admin/claims')).statusCode).toBe(401);
    expect((await get('/api/admin/claims', reviewer)).statusCode).toBe(200);
    expect(await count()).toBe(n);
  });
});
