import { SERVER_BUSY } from '@dn/schema/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_RETRY_AFTER_SEC, hashPassword, MAX_QUEUED_HASHES } from '../../src/lib/password';
import { createDealer, createHarness, GENEROUS_LIMITS, type Harness } from '../helpers';

/**
 * Issue 12: a 429 or a 503 tells the client when to come back (`Retry-After`), on /api and on
 * /trpc alike (plugins/errors.ts for REST, its `trpcRetryAfter` as the tRPC adapter's
 * responseMeta). Before, only REST answers carried the header.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    limits: {
      ...GENEROUS_LIMITS,
      loginPerAccount: { max: 2, windowSec: 900 },
      typeaheadPerIp: { max: 3, windowSec: 60 },
    },
  });
});
afterAll(async () => {
  await h?.close();
});

const trpcLogin = (username: string, password: string, ip: string) =>
  h.app.inject({
    method: 'POST',
    url: '/trpc/auth.dealerLogin',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: { username, password },
  });
const restLogin = (username: string, password: string, ip: string) =>
  h.app.inject({ method: 'POST', url: '/api/dealer/login', remoteAddress: ip, payload: { username, password } });

describe('Retry-After on 429', () => {
  it('a sign-in over its budget answers 429 with Retry-After on /api and on /trpc', async () => {
    const d = await createDealer(h.db);
    expect((await restLogin(d.email, 'wrong-password', '10.80.0.1')).statusCode).toBe(401);
    expect((await trpcLogin(d.email, 'wrong-password', '10.80.0.2')).statusCode).toBe(401);

    const viaRest = await restLogin(d.email, d.password, '10.80.0.3');
    const viaTrpc = await trpcLogin(d.email, d.password, '10.80.0.4');
    for (const res of [viaRest, viaTrpc]) {
      expect(res.statusCode).toBe(429);
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThan(800);
      expect(wait).toBeLessThanOrEqual(900);
    }
    expect(viaTrpc.json().error.data.retryAfterSec).toBe(Number(viaTrpc.headers['retry-after']));
  });

  it('a tRPC batch of queries with one over the budget carries Retry-After; one within it does not', async () => {
    const ip = '10.81.0.1';
    const batch = (n: number) =>
      h.app.inject({
        method: 'GET',
        url: `/trpc/${Array(n).fill('site.publicDealers').join(',')}?batch=1&input=${encodeURIComponent(
          JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { q: 'tes' }]))),
        )}`,
        remoteAddress: ip,
      });
    const within = await batch(2);
    expect(within.statusCode).toBe(200);
    expect(within.headers['retry-after']).toBeUndefined();
    const over = await batch(3);
    expect(over.statusCode).toBe(207);
    const codes = (over.json() as { error?: { data: { httpStatus: number } } }[]).map(
      (e) => e.error?.data.httpStatus ?? 200,
    );
    // The entries run concurrently: which of them was counted first is not fixed.
    expect(codes.sort()).toEqual([200, 429, 429]);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers without a wait carry no Retry-After on /trpc', async () => {
    const d = await createDealer(h.db);
    const res = await trpcLogin(d.email, 'wrong-password', '10.82.0.1');
    expect(res.statusCode).toBe(401);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});

describe('Retry-After on 503 (the argon2 queue is full)', () => {
  it('a sign-in refused by a full hashing queue answers 503, the schema message and Retry-After, on /api and /trpc', async () => {
    const d = await createDealer(h.db);
    // The queue is filled first; the two sign-ins arrive while it is still full (about a second).
    const filling = Array.from({ length: MAX_QUEUED_HASHES }, (_, i) => hashPassword(`fill-${i}`).catch(() => null));
    const [viaRest, viaTrpc] = await Promise.all([
      restLogin(d.email, d.password, '10.83.0.1'),
      trpcLogin(d.email, d.password, '10.83.0.2'),
    ]);
    await Promise.all(filling);
    expect(viaRest.statusCode).toBe(503);
    expect(viaRest.json().message).toBe(SERVER_BUSY);
    expect(viaTrpc.statusCode).toBe(503);
    expect(viaTrpc.json().error.message).toBe(SERVER_BUSY);
    for (const res of [viaRest, viaTrpc]) {
      expect(res.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SEC));
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // The queue drained: sign-ins work again.
    const other = await createDealer(h.db);
    expect((await restLogin(other.email, other.password, '10.83.0.3')).statusCode).toBe(200);
  });
});
