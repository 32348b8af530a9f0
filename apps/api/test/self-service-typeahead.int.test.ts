import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReferralRef } from '../src/lib/referral-ref';
import { createDealer, createHarness, type Harness, signInAdmin, TEST_SECRET, uniqueEmail } from './helpers';
import { application } from './site-fixtures';

// Issue 15: the referral picker's typeahead and the spec details of the signup and videos.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const search = (q: string, ip = '10.0.0.1') =>
  h.app.inject({ url: `/api/dealers/public?q=${encodeURIComponent(q)}`, remoteAddress: ip });
// Issue 35: results carry an opaque `ref` (not the dealer's id) and the search needs 3 characters;
// these tests name the dealers found by the id their reference opens to.
type Hit = { ref: string; fullName: string; companyName: string | null };
const idsOf = (hits: Hit[]) => hits.map((d) => openReferralRef(TEST_SECRET, d.ref));

describe('GET /api/dealers/public?q=', () => {
  it('matches name and company prefixes and word prefixes, ranked, approved and active only', async () => {
    const tag = `zq${Date.now().toString(36).slice(-4)}`;
    const byName = await createDealer(h.db, { fullName: `${tag}ana Smith`, companyName: 'Other Co' });
    const byCompany = await createDealer(h.db, {
      fullName: 'Bo Jones',
      companyName: `${tag}ora Attic`,
      status: 'active',
    });
    const byWord = await createDealer(h.db, { fullName: `Cy ${tag}ell`, companyName: 'X' });
    await createDealer(h.db, { fullName: `${tag}pending`, status: 'pending' });
    await createDealer(h.db, { fullName: `${tag}rejected`, status: 'rejected' });
    const res = await search(tag.toUpperCase());
    expect(res.statusCode).toBe(200);
    const list = res.json() as Hit[];
    expect(idsOf(list)).toEqual([byName.id, byCompany.id, byWord.id]);
    expect(list[0]).toEqual({ ref: expect.any(String), fullName: `${tag}ana Smith`, companyName: 'Other Co' });
    // a word of the company, and two words at once
    expect(idsOf((await search(`attic ${tag}`)).json() as Hit[])).toEqual([byCompany.id]);
  });

  it('answers at most 20, and treats wildcards and punctuation literally', async () => {
    const tag = `many${Date.now().toString(36).slice(-4)}`;
    for (let i = 0; i < 25; i++) await createDealer(h.db, { fullName: `${tag} Person ${i}` });
    expect(((await search(tag)).json() as Hit[]).length).toBe(20);
    for (const q of ['%%%', '___', "'; drop table dealers; --", ':::', '!&|', 'a:*']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
    }
    expect(((await search('%%%')).json() as Hit[]).length).toBe(0);
  });

  it('refuses a 1- or 2-character or overlong q with 400', async () => {
    expect((await search('a')).statusCode).toBe(400);
    expect((await search('ab')).statusCode).toBe(400);
    expect((await search('x'.repeat(101))).statusCode).toBe(400);
  });

  it('never returns an email, a phone or an address (property over random dealers)', async () => {
    const word = fc.stringMatching(/^[A-Za-z][a-z]{1,9}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          first: word,
          last: word,
          company: fc.option(word, { nil: undefined }),
          cut: fc.integer({ min: 3, max: 4 }),
        }),
        async ({ first, last, company, cut }) => {
          const fullName = `${first} ${last}`;
          const email = uniqueEmail(first.toLowerCase());
          await createDealer(h.db, { fullName, companyName: company, email });
          const q = (company ?? last).slice(0, cut);
          fc.pre(q.length >= 3);
          const res = await search(q, '10.9.9.9');
          expect(res.statusCode).toBe(200);
          for (const d of res.json() as Record<string, unknown>[]) {
            expect(Object.keys(d).sort()).toEqual(['companyName', 'fullName', 'ref']);
          }
          expect(res.body).not.toContain('@');
          expect(res.body).not.toContain('+1555');
          expect(res.body).not.toMatch(/email|phone|street|password/i);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('has a per-IP budget: a typist is served, a scraper is refused with 429', async () => {
    const tight = await createHarness({ database: h.database, limits: { typeaheadPerIp: { max: 5, windowSec: 60 } } });
    try {
      const send = (ip: string) => tight.app.inject({ url: '/api/dealers/public?q=abc', remoteAddress: ip });
      for (let i = 0; i < 5; i++) expect((await send('10.1.1.1')).statusCode).toBe(200);
      const refused = await send('10.1.1.1');
      expect(refused.statusCode).toBe(429);
      expect((await send('10.1.1.2')).statusCode).toBe(200);
    } finally {
      await tight.app.close();
    }
  });
});

describe('spec details (issue 15)', () => {
  const post = (payload: unknown) =>
    h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: payload as object });
  const stored = async (email: string) =>
    h.db.selectFrom('dealers').select(['productVerticals']).where('email', '=', email).executeTakeFirst();

  it('productVerticals takes unique plain names, stored qualified', async () => {
    const body = application('Affiliate', { productVerticals: ['Wind', 'HVAC', 'Solar: Residential'] });
    expect((await post(body)).statusCode).toBe(200);
    expect((await stored(body.email))?.productVerticals).toEqual([
      'Alternative Energy: Wind',
      'Energy Efficiency: HVAC',
      'Solar: Residential',
    ]);
  });

  it('a bare ambiguous name is a 400 listing both qualified choices, and nothing is stored', async () => {
    const body = application('Affiliate', { productVerticals: ['Residential'] });
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Solar: Residential');
    expect(res.body).toContain('Special Financing Services: Residential');
    expect(await stored(body.email)).toBeUndefined();
  });

  it('the OpenAPI document lists the accepted values', async () => {
    const doc = (await h.app.inject('/api/openapi.json')).json();
    const text = JSON.stringify(doc.paths['/api/dealer-signup']);
    for (const v of ['"Wind"', '"HVAC"', '"Solar: Residential"', '"Special Financing Services: Residential"']) {
      expect(text).toContain(v);
    }
    expect(text).not.toContain('"Residential"');
  });

  it('a malformed recruiter id in the body gets the spec message, nothing stored', async () => {
    const body = application('Affiliate', { recruiterId: 'x!' });
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors?.recruiterId).toBe(
      'Recruiter ID must be 3-20 characters, letters, numbers, underscore or dash only',
    );
    expect(await stored(body.email)).toBeUndefined();
  });

  it('GET /api/landing-videos carries each id, usable with PUT /api/admin/landing-videos/{videoId}', async () => {
    const videos = (await h.app.inject('/api/landing-videos')).json() as { id: string; videoKey: string }[];
    const rows = await h.db.selectFrom('landingVideos').select(['id', 'videoKey']).execute();
    expect(videos.length).toBeGreaterThan(0);
    for (const v of videos) expect(v.id).toBe(rows.find((r) => r.videoKey === v.videoKey)?.id);

    // A script with an admin session and only the public list: it edits a video by the id it read.
    const cookie = await signInAdmin(h.app, 'video-script');
    const target = videos.find((v) => v.videoKey === 'demo_video') ?? videos[0]!;
    const title = `Scripted ${Date.now().toString(36)}`;
    const put = await h.app.inject({
      method: 'PUT',
      url: `/api/admin/landing-videos/${target.id}`,
      headers: { cookie },
      payload: { title, vimeoEmbedCode: 'https://vimeo.com/123456789' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = (await h.app.inject('/api/landing-videos')).json() as {
      id: string;
      title: string;
      playerUrl: string | null;
    }[];
    expect(after.find((v) => v.id === target.id)).toMatchObject({
      title,
      playerUrl: expect.stringMatching(/^https:\/\/player\.vimeo\.com\/video\/123456789/),
    });
    // The others are untouched.
    for (const v of after.filter((x) => x.id !== target.id)) expect(v.title).not.toBe(title);
  });
});
