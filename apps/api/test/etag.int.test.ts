import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from '../src/plugins/etag';
import { createHarness, type Harness, signInAdmin } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('conditional GET', () => {
  it('answers a REST poll of unchanged data with 304 and no body', async () => {
    const cookie = await signInAdmin(h.app);
    const first = await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(first.statusCode).toBe(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/"[\w-]{22}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie, 'if-none-match': tag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(tag);

    const stale = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie, 'if-none-match': 'W/"something-else"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
  });

  it('answers a tRPC GET query with 304 when unchanged, and a different tag when the data differ', async () => {
    const cookie = await signInAdmin(h.app);
    const url = '/trpc/auth.me';
    const signedIn = await h.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().result.data.role).toBe('admin');
    const tag = signedIn.headers.etag as string;
    expect(tag).toBeTruthy();

    const again = await h.app.inject({ method: 'GET', url, headers: { cookie, 'if-none-match': tag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const visitor = await h.app.inject({ method: 'GET', url, headers: { 'if-none-match': tag } });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json().result.data).toBeNull();
    expect(visitor.headers.etag).not.toBe(tag);
  });

  it('leaves errors, mutations and non-API paths alone', async () => {
    const unauth = await h.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers.etag).toBeUndefined();
    const health = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.headers.etag).toBeUndefined();
    const post = await h.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(post.headers.etag).toBeUndefined();
  });

  it('compares weakly and honours lists and *', () => {
    expect(ifNoneMatchHits('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('*', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abcd"', 'W/"abc"')).toBe(false);
    expect(ifNoneMatchHits(undefined, 'W/"abc"')).toBe(false);
  });
});
