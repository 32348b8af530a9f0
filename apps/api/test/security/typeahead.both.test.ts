import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/services/accounts/rate-limit';
import { createDealer, createHarness, type Harness, signInDealer, uniqueEmail } from '../helpers';
import { application } from './support';

/**
 * Issue 35, finding 8: the public referral typeahead listed the network (120 requests a minute per
 * address x 20 results, from 2 characters, with every dealer's stable id). Now: 3 characters at
 * least, 30 a minute and a lower daily cap per address, results carry an opaque reference good
 * only as a signup's referral (never the dealer's id, different at every answer), and a dealer can
 * leave the picker from their profile.
 */

let h: Harness;
const TAG = `qz${Date.now().toString(36).slice(-5)}`;
let dealer: { id: string; email: string };
beforeAll(async () => {
  h = await createHarness();
  dealer = await createDealer(h.db, {
    status: 'approved',
    fullName: `${TAG} Picker`,
    companyName: `${TAG} Solar`,
    password: 'dealer-pass-1',
  });
});
afterAll(async () => {
  await h?.close();
});

type Hit = Record<string, unknown> & { fullName: string; companyName: string | null };
const search = (q: string | undefined, ip = '10.8.0.1', app = h.app) =>
  app.inject({ url: `/api/dealers/public${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`, remoteAddress: ip });
const refOf = (hits: Hit[]) => hits.find((d) => d.fullName === `${TAG} Picker`)?.ref as string | undefined;
const signup = (over: Record<string, unknown>, ip = '10.8.1.1') =>
  h.app.inject({
    method: 'POST',
    url: '/api/dealer-signup',
    remoteAddress: ip,
    payload: application(uniqueEmail('typeahead'), over),
  });
const storedReferrer = async (email: string) =>
  (
    await h.db
      .selectFrom('dealers')
      .select(['referredBy', 'referralType'])
      .where('email', '=', email)
      .executeTakeFirst()
  )?.referredBy;

describe('the public typeahead', () => {
  it('needs 3 characters: none or 2 are refused with 400, 3 are served', async () => {
    expect((await search(undefined)).statusCode).toBe(400);
    expect((await search(TAG.slice(0, 2))).statusCode).toBe(400);
    const three = await search(TAG.slice(0, 3));
    expect(three.statusCode, three.body).toBe(200);
  });

  it("answers an opaque reference, never the dealer's id, and a new one every time", async () => {
    const first = await search(TAG);
    expect(first.statusCode).toBe(200);
    expect(first.body).not.toContain(dealer.id);
    const hits = first.json() as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    for (const d of hits) expect(Object.keys(d).sort()).toEqual(['companyName', 'fullName', 'ref']);
    const again = refOf((await search(TAG)).json());
    expect(refOf(hits)).toBeDefined();
    expect(again).not.toBe(refOf(hits));
  });

  it('the reference attributes a signup; the raw id, a forged or altered reference does not', async () => {
    const ref = refOf((await search(TAG)).json())!;
    const ok = application(uniqueEmail('ref-ok'), { referredBy: ref });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/dealer-signup',
      payload: ok,
      remoteAddress: '10.8.2.1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await storedReferrer(ok.email)).toBe(dealer.id);

    const altered = `${ref.slice(0, -2)}${ref.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const referredBy of [dealer.id, altered, 'x'.repeat(ref.length)]) {
      const bad = await signup({ referredBy });
      expect(bad.statusCode, referredBy).toBe(400);
      expect(bad.json().fieldErrors?.referredBy).toBe('Please select how you were referred');
    }
  });

  it('the reference is good for a signup only: it is no id anywhere else', async () => {
    const ref = refOf((await search(TAG)).json())!;
    const viaAdmin = await h.app.inject({ url: `/api/admin/dealers/${ref}/timeline`, remoteAddress: '10.8.3.1' });
    expect([400, 401, 404]).toContain(viaAdmin.statusCode);
  });

  it('30 a minute per address (40 concurrent: 30 served, the rest 429 with Retry-After), and a lower daily cap', async () => {
    expect(DEFAULT_LIMITS.typeaheadPerIp).toEqual({ max: 30, windowSec: 60 });
    const daily = DEFAULT_LIMITS.typeaheadPerIpDaily;
    expect(daily.windowSec).toBe(86_400);
    expect(daily.max).toBeLessThan(30 * 60 * 24);
    // At the daily cap, 20 results each, listing 10,000 dealers takes longer than a day per address.
    expect(daily.max * 20).toBeLessThan(10_000);

    const strict = await createHarness({
      database: h.database,
      limits: { typeaheadPerIp: DEFAULT_LIMITS.typeaheadPerIp, typeaheadPerIpDaily: daily },
    });
    try {
      const burst = await Promise.all(Array.from({ length: 40 }, () => search(TAG, '10.8.4.1', strict.app)));
      const codes = burst.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(30);
      expect(codes.filter((c) => c === 429)).toHaveLength(10);
      expect(burst.find((r) => r.statusCode === 429)?.headers['retry-after']).toBeDefined();
      // Another address has its own budget.
      expect((await search(TAG, '10.8.4.2', strict.app)).statusCode).toBe(200);
    } finally {
      await strict.app.close();
    }

    const daylong = await createHarness({
      database: h.database,
      limits: { typeaheadPerIp: { max: 100_000, windowSec: 60 }, typeaheadPerIpDaily: daily },
    });
    try {
      let served = 0;
      for (let i = 0; i < daily.max + 5; i++) {
        if ((await search(TAG, '10.8.5.1', daylong.app)).statusCode === 200) served++;
      }
      expect(served).toBe(daily.max);
    } finally {
      await daylong.app.close();
    }
  });

  it('a dealer leaves the picker from their profile, and comes back', async () => {
    const cookie = await signInDealer(h.app, dealer.email);
    const profile = await h.app.inject({ url: '/api/dealer/profile', headers: { cookie } });
    expect(profile.json().inReferralPicker).toBe(true);
    const { email: _e, tier: _t, fullName: _f, ...editable } = profile.json();
    const put = (inReferralPicker: boolean) =>
      h.app.inject({
        method: 'PUT',
        url: '/api/dealer/profile',
        headers: { cookie },
        payload: { ...editable, inReferralPicker },
      });
    expect((await put(false)).statusCode).toBe(200);
    expect(refOf((await search(TAG, '10.8.6.1')).json())).toBeUndefined();
    expect((await h.app.inject({ url: '/api/dealer/profile', headers: { cookie } })).json().inReferralPicker).toBe(
      false,
    );
    expect((await put(true)).statusCode).toBe(200);
    expect(refOf((await search(TAG, '10.8.6.1')).json())).toBeDefined();
  });
});
