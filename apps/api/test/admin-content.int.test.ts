import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin, uniqueEmail } from './helpers';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h.app, 'editor');
});
afterAll(async () => {
  await h?.close();
});

const send = (method: 'POST' | 'PUT', url: string, payload: object = {}) =>
  h.app.inject({ method, url, payload, headers: { cookie: admin } });
const get = (url: string) => h.app.inject({ url, headers: { cookie: admin } });
const audits = (eventType: string) =>
  h.db.selectFrom('auditLogs').select(['details', 'message']).where('eventType', '=', eventType).execute();

describe('first-order forms', () => {
  const FORM = 'https://docs.google.com/forms/d/e/abc123/viewform';

  it('stores a normalised Google Form URL and forces required for installer tiers', async () => {
    const res = await send('PUT', '/api/admin/first-order-forms/Authorized', {
      formUrl: `  ${FORM}  `,
      isRequired: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tier: 'Authorized', formUrl: `${FORM}?embedded=true`, isRequired: true });
    const aff = await send('PUT', '/api/admin/first-order-forms/Affiliate', {
      formUrl: `${FORM}?usp=sf_link`,
      isRequired: false,
    });
    expect(aff.json()).toMatchObject({ formUrl: `${FORM}?usp=sf_link&embedded=true`, isRequired: false });
    const list = (await get('/api/admin/first-order-forms')).json();
    expect(list.map((f: { tier: string }) => f.tier)).toEqual(['Affiliate', 'Authorized', 'Preferred']);
    expect((await audits('first_order_form.updated')).length).toBe(2);
  });

  it.each([['http://docs.google.com/forms/d/x/viewform'], ['https://evil.example/forms/d/x'], ['javascript:alert(1)']])(
    'refuses %s with the spec message and stores nothing',
    async (formUrl) => {
      const before = await h.db
        .selectFrom('firstOrderForms')
        .selectAll()
        .where('tier', '=', 'Preferred')
        .executeTakeFirst();
      const res = await send('PUT', '/api/admin/first-order-forms/Preferred', { formUrl, isRequired: true });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/Google Forms/);
      const after = await h.db
        .selectFrom('firstOrderForms')
        .selectAll()
        .where('tier', '=', 'Preferred')
        .executeTakeFirst();
      expect(after).toEqual(before);
    },
  );

  it('refuses an unknown tier and a non-boolean flag', async () => {
    expect((await send('PUT', '/api/admin/first-order-forms/Gold', { formUrl: FORM })).statusCode).toBe(400);
    const res = await send('PUT', '/api/admin/first-order-forms/Affiliate', { formUrl: FORM, isRequired: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Required must be true or false');
  });
});

describe('landing videos', () => {
  const EMBED =
    '<div><iframe src="https://player.vimeo.com/video/123456789?h=abcdef1234&amp;badge=0" onload="alert(1)"></iframe></div><script>alert(2)</script>';

  it('stores the extracted player URL, never the HTML; a blank title keeps the current one', async () => {
    const [video] = await h.db.selectFrom('landingVideos').selectAll().where('videoKey', '=', 'intro_video').execute();
    const res = await send('PUT', `/api/admin/landing-videos/${video!.id}`, { title: '  ', vimeoEmbedCode: EMBED });
    expect(res.statusCode).toBe(200);
    const row = await h.db
      .selectFrom('landingVideos')
      .selectAll()
      .where('id', '=', video!.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe(video!.title);
    expect(row.vimeoEmbedCode).toBe('https://player.vimeo.com/video/123456789?h=abcdef1234&dnt=1');
    const renamed = await send('PUT', `/api/admin/landing-videos/${video!.id}`, { title: 'Meet us' });
    expect(renamed.json()).toMatchObject({ title: 'Meet us', vimeoEmbedCode: row.vimeoEmbedCode });
    const [a] = await audits('landing_video.updated');
    expect(a!.details).toMatchObject({ videoKey: 'intro_video' });
    const list = (await get('/api/admin/landing-videos')).json();
    expect(list.map((v: { videoKey: string }) => v.videoKey)).toEqual(['demo_video', 'intro_video']);
  });

  it('refuses embed codes without a Vimeo player and unknown videos', async () => {
    const [video] = await h.db.selectFrom('landingVideos').selectAll().where('videoKey', '=', 'demo_video').execute();
    const bad = await send('PUT', `/api/admin/landing-videos/${video!.id}`, {
      vimeoEmbedCode: '<iframe src="https://evil.example/x"></iframe>',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Paste a Vimeo embed code or a vimeo.com video link');
    expect((await send('PUT', `/api/admin/landing-videos/${randomUUID()}`, { title: 'x' })).statusCode).toBe(404);
    expect((await send('PUT', '/api/admin/landing-videos/nope', { title: 'x' })).statusCode).toBe(400);
  });
});

describe('call schedules', () => {
  const book = (preferredDate: string, status: 'scheduled' | 'completed' = 'scheduled') =>
    h.db
      .insertInto('callSchedules')
      .values({
        name: 'Caller <b>bold</b>',
        email: uniqueEmail('call'),
        phone: '5551234567',
        preferredDate,
        preferredTime: 'afternoon',
        status,
        updatedAt: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

  it('lists scheduled calls first, soonest first, and marks one completed', async () => {
    const late = await book('2031-05-01');
    const soon = await book('2030-05-01');
    const done = await book('2029-01-01', 'completed');
    const list = (await get('/api/call-schedules')).json() as { id: string; status: string }[];
    const ids = list.map((c) => c.id);
    expect(ids.indexOf(soon.id)).toBeLessThan(ids.indexOf(late.id));
    expect(ids.indexOf(late.id)).toBeLessThan(ids.indexOf(done.id));

    const bad = await send('POST', `/api/admin/call-schedules/${soon.id}/status`, { status: 'lost' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown call status');
    const ok = await send('POST', `/api/admin/call-schedules/${soon.id}/status`, { status: 'completed' });
    expect(ok.statusCode).toBe(200);
    const row = await h.db
      .selectFrom('callSchedules')
      .select('status')
      .where('id', '=', soon.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
    expect((await audits('call.completed')).length).toBe(1);
    expect(
      (await send('POST', `/api/admin/call-schedules/${randomUUID()}/status`, { status: 'cancelled' })).statusCode,
    ).toBe(404);
  });
});

describe('affiliate tracking', () => {
  it('shows visits, signups and approvals per recruiter and the recent events', async () => {
    const recruiter = await createDealer(h.db, { fullName: 'Rex' });
    const rid = `rex${randomUUID().slice(0, 6)}`;
    await h.db
      .insertInto('affiliateLinks')
      .values({ recruiterId: rid, dealerId: recruiter.id, affiliateCode: rid, updatedAt: new Date() })
      .execute();
    for (let i = 0; i < 3; i++) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/affiliate/track-event',
        payload: {
          eventType: 'url_capture',
          recruiterId: rid,
          details: { url: 'https://dealers.test/?r=x', referrer: '', timestamp: new Date().toISOString() },
        },
      });
      expect(res.statusCode).toBe(200);
    }
    await createDealer(h.db, { referredBy: recruiter.id, status: 'pending' });
    await createDealer(h.db, { referredBy: recruiter.id, status: 'approved' });
    const res = await get('/api/admin/affiliate-tracking');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.recruiters.find((r: { recruiterId: string }) => r.recruiterId === rid)).toMatchObject({
      fullName: 'Rex',
      visits: 3,
      signups: 2,
      approvals: 1,
    });
    expect(body.events.filter((e: { recruiterId: string }) => e.recruiterId === rid)).toHaveLength(3);
  });
});
