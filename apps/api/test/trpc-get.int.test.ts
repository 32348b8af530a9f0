import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';

// A GET of queries on /trpc is answered by http/trpc.ts without tRPC's fetch adapter (decision
// 0750). tRPC's own handler still answers a GET that carries `connectionParams`, so each request
// below is sent both ways and the answers must match byte for byte: status, body, the headers
// the client or a cache reads.

let h: Harness;
let dealer: string;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  const d = await createDealer(h.db);
  dealer = await signInDealer(h.app, d.email);
  admin = await signInAdmin(h.app);
});
afterAll(() => h.close());

const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;

/**
 * `versioned`: every entry declares a version (decisions 0790, 0791), so the direct answer's ETag is made
 * from it rather than from the body; all else must still match.
 */
async function bothWays(url: string, cookie?: string, versioned = false, app = h.app) {
  const headers = cookie ? { cookie } : {};
  const direct = await app.inject({ method: 'GET', url, headers });
  const viaTrpc = await app.inject({
    method: 'GET',
    url: `${url}${url.includes('?') ? '&' : '?'}connectionParams=${encodeURIComponent('{}')}`,
    headers,
  });
  const seen = (res: typeof direct) => ({
    status: res.statusCode,
    body: res.body,
    type: res.headers['content-type'],
    vary: res.headers.vary,
    etag: versioned ? undefined : res.headers.etag,
    retryAfter: res.headers['retry-after'],
    cacheControl: res.headers['cache-control'],
  });
  expect(seen(direct)).toEqual(seen(viaTrpc));
  if (versioned) {
    expect(direct.headers.etag).toMatch(/^W\/"v-[\w-]{22}"$/);
    expect(viaTrpc.headers.etag).toMatch(/^W\/"[\w-]{22}"$/);
  }
  return direct;
}

describe('GET /trpc queries answered directly', () => {
  it('one query, and a batch, as the dealer dashboard polls them', async () => {
    expect((await bothWays('/trpc/auth.me', dealer)).json().result.data.role).toBe('dealer');
    const batch = await bothWays(`/trpc/account.info,account.affiliateStats?batch=1&${input({})}`, dealer, true);
    expect(batch.statusCode).toBe(200);
    expect(batch.json()).toHaveLength(2);
  });

  it('a visitor gets 401 for every entry; a batch of 200 and 401 is 207', async () => {
    const refused = await bothWays(`/trpc/account.info,account.affiliateStats?batch=1&${input({})}`);
    expect(refused.statusCode).toBe(401);
    const mixed = await bothWays('/trpc/auth.me,account.info?batch=1');
    expect(mixed.statusCode).toBe(207);
    expect(mixed.json()[1].error.data.httpStatus).toBe(401);
  });

  it('a dealer asking for an admin query gets 403; an admin gets the page', async () => {
    expect((await bothWays(`/trpc/admin.dealers?${input({})}`, dealer)).statusCode).toBe(403);
    // The admin's dealer table is versioned too (decision 0791).
    expect((await bothWays(`/trpc/admin.dealers?batch=1&${input({ 0: { page: 1 } })}`, admin, true)).statusCode).toBe(
      200,
    );
  });

  it('bad input is 400 with the field messages, in and out of a batch', async () => {
    const single = await bothWays(`/trpc/site.publicDealers?${input({ q: 123 })}`);
    expect(single.statusCode).toBe(400);
    expect(single.json().error.data.fieldErrors).toBeDefined();
    const batch = await bothWays(`/trpc/site.landingVideos,site.publicDealers?batch=1&${input({ 1: { q: [] } })}`);
    expect(batch.statusCode).toBe(207);
  });

  it('a query over its budget is 429 with Retry-After, alone and in a batch (207)', async () => {
    const tight = await createHarness({ database: h.database, limits: { typeaheadPerIp: { max: 2, windowSec: 60 } } });
    try {
      const url = `/trpc/site.publicDealers?${input({ q: 'abc' })}`;
      // Each comparison sends the request twice, so the first one spends the budget of two.
      expect((await bothWays(url, undefined, false, tight.app)).statusCode).toBe(200);
      const refused = await bothWays(url, undefined, false, tight.app);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const batch = await bothWays(
        `/trpc/site.landingVideos,site.publicDealers?batch=1&${input({ 1: { q: 'abc' } })}`,
        undefined,
        false,
        tight.app,
      );
      expect(batch.statusCode).toBe(207);
      expect(Number(batch.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await tight.app.close();
    }
  });

  it('what tRPC must refuse or stream stays with tRPC: unknown paths, mutations over GET, broken JSON, jsonl', async () => {
    for (const url of [
      '/trpc/nope.nothing',
      `/trpc/site.scheduleCall?${input({})}`,
      '/trpc/site.publicDealers?input=%7B',
      `/trpc/site.publicDealers,site.publicDealers?batch=1&${input([1])}`,
    ]) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    for (const headers of [{ 'trpc-accept': 'application/jsonl' }, { accept: 'application/jsonl' }]) {
      const streamed = await h.app.inject({ method: 'GET', url: '/trpc/auth.me?batch=1', headers });
      // tRPC's stream: JSON lines (its content type stays application/json), not one JSON array.
      const lines = streamed.body.trim().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      expect(Array.isArray(JSON.parse(lines[0]!))).toBe(false);
    }
    const inherited = await h.app.inject({ method: 'GET', url: '/trpc/auth.me,constructor?batch=1' });
    expect(inherited.statusCode).toBe(207);
    expect(inherited.json()[1].error.data.httpStatus).toBe(404);
  });
});
