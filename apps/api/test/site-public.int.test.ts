import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReferralRef } from '../src/lib/referral-ref';
import { createDealer, createHarness, type Harness, signInAdmin, TEST_SECRET } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const auditCount = async (eventType: string) =>
  Number(
    (
      await h.db
        .selectFrom('auditLogs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('eventType', '=', eventType)
        .executeTakeFirstOrThrow()
    ).n,
  );

// Issue 35 changed this endpoint's rule: a search of 3+ characters is required (without one it listed
// the first 20 dealers), and each result carries an opaque `ref` instead of the dealer's id.
describe('GET /api/dealers/public', () => {
  it('lists approved and active dealers with ref, fullName and companyName only; the ref names the dealer', async () => {
    const tag = `pub${Date.now().toString(36).slice(-5)}`;
    const approved = await createDealer(h.db, {
      status: 'approved',
      fullName: `${tag} Amy Approved`,
      companyName: 'A Co',
    });
    await createDealer(h.db, { status: 'active', fullName: `${tag} Ann Active` });
    await createDealer(h.db, { status: 'pending', fullName: `${tag} Pat Pending` });
    await createDealer(h.db, { status: 'rejected', fullName: `${tag} Rex Rejected` });
    const res = await h.app.inject(`/api/dealers/public?q=${tag}`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { ref: string; fullName: string }[];
    const names = list.map((d) => d.fullName);
    expect(names).toContain(`${tag} Amy Approved`);
    expect(names).toContain(`${tag} Ann Active`);
    expect(names).not.toContain(`${tag} Pat Pending`);
    expect(names).not.toContain(`${tag} Rex Rejected`);
    const amy = list.find((d) => d.fullName === `${tag} Amy Approved`);
    expect(amy).toEqual({ ref: expect.any(String), fullName: `${tag} Amy Approved`, companyName: 'A Co' });
    expect(openReferralRef(TEST_SECRET, amy!.ref)).toBe(approved.id);
    expect(res.body).not.toMatch(/email|password|phone/i);
  });

  it('has a tRPC twin', async () => {
    const res = await h.app.inject(
      `/trpc/site.publicDealers?input=${encodeURIComponent(JSON.stringify({ q: 'amy' }))}`,
    );
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json().result.data)).toBe(true);
  });
});

describe('GET /api/landing-videos', () => {
  it('sends the extracted player URL, never the admin HTML', async () => {
    await h.db
      .updateTable('landingVideos')
      .set({
        vimeoEmbedCode:
          '<iframe src="https://player.vimeo.com/video/123456?h=abcdef1234&autoplay=1" onload="alert(1)"></iframe><script>alert(2)</script>',
        title: 'Intro <b>bold</b>',
      })
      .where('videoKey', '=', 'intro_video')
      .execute();
    await h.db
      .updateTable('landingVideos')
      .set({ vimeoEmbedCode: '<img src=x onerror="alert(3)">' })
      .where('videoKey', '=', 'demo_video')
      .execute();
    const res = await h.app.inject('/api/landing-videos');
    expect(res.statusCode).toBe(200);
    const videos = res.json() as { videoKey: string; playerUrl: string | null; title: string; isActive: boolean }[];
    const intro = videos.find((v) => v.videoKey === 'intro_video');
    const demo = videos.find((v) => v.videoKey === 'demo_video');
    expect(intro).toEqual({
      // SPEC data model: each video's id, so a script can call PUT /api/admin/landing-videos/{videoId} (issue 15).
      id: expect.any(String),
      videoKey: 'intro_video',
      title: 'Intro <b>bold</b>',
      isActive: true,
      playerUrl: 'https://player.vimeo.com/video/123456?h=abcdef1234&dnt=1',
    });
    expect(demo?.playerUrl).toBeNull();
    expect(res.body).not.toMatch(/<script|onerror|onload|<iframe|vimeoEmbedCode/);
  });

  it('has a tRPC twin', async () => {
    const res = await h.app.inject('/trpc/site.landingVideos');
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.length).toBeGreaterThanOrEqual(2);
  });
});

describe('tracking', () => {
  it('records a cookie_set event in the audit trail', async () => {
    const before = await auditCount('affiliate.cookie_set');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/track-event',
      payload: {
        eventType: 'cookie_set',
        recruiterId: 'rita-01',
        details: { expirationDate: '2026-12-21', isSecure: true, timestamp: '2026-11-21T10:00:00Z' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(await auditCount('affiliate.cookie_set')).toBe(before + 1);
    const row = await h.db
      .selectFrom('auditLogs')
      .select(['recruiterId', 'details', 'category'])
      .where('eventType', '=', 'affiliate.cookie_set')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // The caller's details are kept under their own key (issue 35, finding 9: they were spread into the row).
    expect(row).toMatchObject({
      recruiterId: 'rita-01',
      category: 'affiliate',
      details: { client: { isSecure: true } },
    });
  });

  it('records a url_capture and a signup', async () => {
    const capture = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/track-event',
      payload: { eventType: 'url_capture', recruiterId: 'rita-01', details: { url: 'https://x.test/?r=rita-01' } },
    });
    expect(capture.statusCode).toBe(200);
    const before = await auditCount('affiliate.signup_tracked');
    const signup = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/track-signup',
      payload: { recruiterId: 'rita-01', userData: { email: 'New@Example.com' }, clientHash: 'abc123' },
    });
    expect(signup.statusCode).toBe(200);
    expect(await auditCount('affiliate.signup_tracked')).toBe(before + 1);
  });

  it('refuses garbage with 4xx and writes nothing', async () => {
    const before = Number(
      (
        await h.db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const bad: [string, unknown][] = [
      ['/api/affiliate/track-event', { eventType: 'hack', recruiterId: 'x' }],
      ['/api/affiliate/track-event', { eventType: 'cookie_set', recruiterId: 'x'.repeat(500) }],
      ['/api/affiliate/track-event', { eventType: 'cookie_set', recruiterId: 'ok', details: { a: { deep: 1 } } }],
      [
        '/api/affiliate/track-event',
        {
          eventType: 'cookie_set',
          recruiterId: 'ok',
          details: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])),
        },
      ],
      ['/api/affiliate/track-signup', { recruiterId: 'ok', userData: { email: 'nope' } }],
      ['/api/affiliate/track-signup', 'garbage'],
    ];
    for (const [url, payload] of bad) {
      const res = await h.app.inject({
        method: 'POST',
        url,
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const after = Number(
      (
        await h.db
          .selectFrom('auditLogs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });

  it('rate-limits tracking per address', async () => {
    const limited = await createHarness({ limits: { trackPerIp: { max: 2, windowSec: 60 } } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/api/affiliate/track-event',
          payload: { eventType: 'url_capture', recruiterId: 'rita-01' },
        });
        codes.push(r.statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('referral cookie on the server response', () => {
  it('sets recruiter_id for /?r=ID: 30 days, path /, SameSite=Lax, readable by the page', async () => {
    const res = await h.app.inject('/?r=rita-01');
    const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('recruiter_id='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/^recruiter_id=rita-01;/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/HttpOnly/i);
  });

  const recruiterCookie = (res: { headers: Record<string, unknown> }) =>
    [res.headers['set-cookie']].flat().find((c): c is string => typeof c === 'string' && c.startsWith('recruiter_id='));

  it('is Secure whenever PUBLIC_URL is https, even behind a proxy that is not in TRUST_PROXY', async () => {
    const app = await createHarness({ config: { publicUrl: 'https://dealers.example.com', trustProxy: undefined } });
    try {
      // Fastify sees plain http (an X-Forwarded-Proto from an untrusted proxy is not believed).
      for (const headers of [{}, { 'x-forwarded-proto': 'https' }]) {
        const cookie = recruiterCookie(await app.app.inject({ url: '/?r=rita-01', headers }));
        expect(cookie).toMatch(/^recruiter_id=rita-01;/);
        expect(cookie).toMatch(/; Secure/);
      }
    } finally {
      await app.close();
    }
  });

  it('follows the request on an http PUBLIC_URL (development): not Secure over plain http, Secure on https', async () => {
    const app = await createHarness({ config: { publicUrl: 'http://localhost:3000', trustProxy: '127.0.0.1' } });
    try {
      expect(recruiterCookie(await app.app.inject('/?r=rita-01'))).not.toMatch(/Secure/);
      const https = await app.app.inject({ url: '/?r=rita-01', headers: { 'x-forwarded-proto': 'https' } });
      expect(recruiterCookie(https)).toMatch(/Secure/);
    } finally {
      await app.close();
    }
  });

  it('ignores a malformed id', async () => {
    for (const url of ['/?r=ab', '/?r=%3Cscript%3E', `/?r=${'a'.repeat(21)}`, '/api/dealers/public?r=rita-01']) {
      const res = await h.app.inject(url);
      const cookies = [res.headers['set-cookie']].flat().filter(Boolean).join(';');
      expect(cookies, url).not.toMatch(/recruiter_id=/);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});

describe('authorization', () => {
  it('public routes answer visitors and signed-in admins alike', async () => {
    const cookie = await signInAdmin(h.app);
    for (const headers of [{}, { cookie }]) {
      expect((await h.app.inject({ url: '/api/landing-videos', headers })).statusCode).toBe(200);
      expect((await h.app.inject({ url: '/api/dealers/public?q=amy', headers })).statusCode).toBe(200);
    }
  });
});
