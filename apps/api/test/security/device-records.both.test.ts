import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../../src/lib/device-cookie';
import { upsertAdmin } from '../../src/services/accounts/admins';
import { DEFAULT_LIMITS } from '../../src/services/accounts/rate-limit';
import { issueToken } from '../../src/services/accounts/tokens';
import { cookieOf, createDealer, createHarness, GENEROUS_LIMITS, type Harness } from '../helpers';

/**
 * Issue 35, finding 3 (decision 0630 amended): device cookies were unlimited, never revoked and
 * silenced the owner's lock email, so anyone who once knew a password could pre-mint N cookies for
 * 5×N silent guesses a window. Now each device is recorded per account, listed with the account's
 * sessions, revoked by a password change or reset and by "sign out everywhere", capped at the 10
 * most recent, and failures on a known device still count toward the owner's lock notice.
 */
const BUDGET = DEFAULT_LIMITS.loginPerAccount.max;
const CAP = 10;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ limits: { ...GENEROUS_LIMITS, loginPerAccount: DEFAULT_LIMITS.loginPerAccount } });
});
afterAll(async () => {
  await h?.close();
});

let ips = 0;
const nextIp = () => `10.140.${Math.floor(++ips / 250)}.${1 + (ips % 250)}`;

function deviceOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const c = list.find((v) => v.startsWith(`${DEVICE_COOKIE}=`));
  if (!c) throw new Error(`no device cookie in ${res.statusCode}: ${res.body}`);
  return c.split(';')[0]!;
}

const login = (email: string, password: string, device?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/dealer/login',
    remoteAddress: nextIp(),
    payload: { username: email, password },
    ...(device ? { headers: { cookie: device } } : {}),
  });

/** A browser that signs in: its session cookie and its device cookie. */
async function browser(email: string, password: string) {
  const res = await login(email, password);
  expect(res.statusCode, res.body).toBe(200);
  return { session: cookieOf(res), device: deviceOf(res) };
}

/** The dealer's remembered browsers, as their sessions card lists them. */
async function devicesOf(cookie: string): Promise<{ current: boolean }[]> {
  const res = await h.app.inject({ url: '/api/dealer/devices', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Someone elsewhere spends the account's shared budget: unknown clients are locked out. */
async function lockShared(email: string) {
  for (let i = 0; i < BUDGET; i++) await login(email, `wrong-${i}`);
  expect((await login(email, 'wrong-again')).statusCode).toBe(429);
}

describe('device cookies are recorded, listed and capped', () => {
  it('a sign-in records its device, and the account’s sessions card lists it (dealer and admin)', async () => {
    const d = await createDealer(h.db);
    const b = await browser(d.email, d.password);
    const list = await devicesOf(`${b.session}; ${b.device}`);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ current: true, device: expect.any(String) });
    // A second sign-in from the same browser is the same device, not a new one.
    const again = await login(d.email, d.password, b.device);
    expect(again.statusCode).toBe(200);
    expect(await devicesOf(cookieOf(again))).toHaveLength(1);

    await upsertAdmin(h.db, 'device-admin', 'admin-device-pass-1');
    const admin = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'device-admin', password: 'admin-device-pass-1' },
    });
    const mine = await h.app.inject({
      url: '/api/admin/me/devices',
      headers: { cookie: `${cookieOf(admin)}; ${deviceOf(admin)}` },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([expect.objectContaining({ current: true })]);
  });

  it(`past ${CAP} devices the oldest drops: its cookie no longer has a budget of its own, the newest does`, async () => {
    const d = await createDealer(h.db);
    const minted: { session: string; device: string }[] = [];
    for (let i = 0; i < CAP + 2; i++) minted.push(await browser(d.email, d.password));
    const newest = minted.at(-1)!;
    expect(await devicesOf(newest.session)).toHaveLength(CAP);
    await lockShared(d.email);
    expect((await login(d.email, d.password, minted[0]!.device)).statusCode).toBe(429);
    expect((await login(d.email, d.password, minted[1]!.device)).statusCode).toBe(429);
    expect((await login(d.email, d.password, newest.device)).statusCode).toBe(200);
  });
});

describe('devices are revoked', () => {
  it('by a password change: a device remembered before it gets no budget of its own afterwards', async () => {
    const d = await createDealer(h.db);
    const old = await browser(d.email, d.password);
    const current = await browser(d.email, d.password);
    const NEW = 'changed-long-password-1';
    const changed = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/password',
      headers: { cookie: `${current.session}; ${current.device}` },
      payload: { currentPassword: d.password, newPassword: NEW },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await lockShared(d.email);
    expect((await login(d.email, NEW, old.device)).statusCode).toBe(429);
    // The browser that made the change keeps its own.
    expect((await login(d.email, NEW, current.device)).statusCode).toBe(200);
  });

  it('by a reset through an emailed link', async () => {
    const d = await createDealer(h.db);
    const old = await browser(d.email, d.password);
    const token = await h.db.transaction().execute((trx) => issueToken(trx, d.id, 'reset'));
    const NEW = 'reset-long-password-2';
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/setup-password',
      payload: { token, password: NEW },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await lockShared(d.email);
    expect((await login(d.email, NEW, old.device)).statusCode).toBe(429);
  });

  it('by "sign out everywhere"', async () => {
    const d = await createDealer(h.db);
    const old = await browser(d.email, d.password);
    const current = await browser(d.email, d.password);
    const out = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/sessions/sign-out-others',
      headers: { cookie: `${current.session}; ${current.device}` },
    });
    expect(out.statusCode).toBe(200);
    expect(await devicesOf(`${current.session}; ${current.device}`)).toEqual([
      expect.objectContaining({ current: true }),
    ]);
    await lockShared(d.email);
    expect((await login(d.email, d.password, old.device)).statusCode).toBe(429);
  });
});

describe('failures on a known device', () => {
  it('still count toward the owner’s lock notice', async () => {
    const d = await createDealer(h.db);
    const b = await browser(d.email, d.password);
    for (let i = 0; i < BUDGET; i++) {
      expect((await login(d.email, `wrong-${i}`, b.device)).statusCode).toBe(401);
    }
    const notices = await h.db
      .selectFrom('auditLogs')
      .select(['eventType', 'success'])
      .where('eventType', '=', 'auth.lock_notice')
      .where('dealerId', '=', d.id)
      .execute();
    expect(notices).toEqual([{ eventType: 'auth.lock_notice', success: true }]);
    const mail = await h.db
      .selectFrom('emailOutbox')
      .select('kind')
      .where('toAddress', '=', d.email)
      .where('kind', '=', 'account_locked')
      .execute();
    expect(mail).toHaveLength(1);
  });
});
