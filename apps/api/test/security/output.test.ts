import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/services/accounts/tokens';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer, uniqueEmail } from '../helpers';
import { application, inject, procedures, routes, trpc } from './support';

/** What leaves the server: no secrets in any answer, no formulas in the CSV export. */

let h: Harness;
let adminCookie: string;
let dealerCookie: string;
beforeAll(async () => {
  h = await createHarness();
  adminCookie = await signInAdmin(h.app);
  const d = await createDealer(h.db);
  await issueToken(h.db, d.id, 'reset');
  dealerCookie = await signInDealer(h.app, d.email);
});
afterAll(async () => {
  await h?.close();
});

describe('no secrets in answers', () => {
  it('no read of any route or procedure returns a password hash, a token hash or a session id', async () => {
    const tokenHashes = (await h.db.selectFrom('magicLinkTokens').select('token').execute()).map((r) => r.token);
    const sids = (await h.db.selectFrom('sessions').select('sid').execute()).map((r) => r.sid);
    expect(tokenHashes.length).toBeGreaterThan(0);
    const bodies: Array<[string, string]> = [];
    for (const r of routes().filter((x) => x.method === 'GET')) {
      const cookie = r.access === 'dealer' ? dealerCookie : adminCookie;
      bodies.push([r.url, (await inject(h.app, r, { headers: { cookie } })).body]);
    }
    for (const p of procedures().filter((x) => x.type === 'query')) {
      const cookie = p.access === 'dealer' ? dealerCookie : adminCookie;
      bodies.push([p.path, (await trpc(h.app, p, undefined, { cookie })).body]);
    }
    for (const [what, body] of bodies) {
      expect(body, what).not.toMatch(/\$argon2|passwordHash|"password"/);
      for (const t of tokenHashes) expect(body, what).not.toContain(t);
      for (const s of sids) expect(body, what).not.toContain(s);
    }
  });
});

describe('CSV export', () => {
  it('neutralises spreadsheet formulas in user text', async () => {
    const exportRoute = routes().find((r) => r.method === 'GET' && /\/dealers\/export$/.test(r.url));
    expect(exportRoute, 'an admin CSV export route').toBeDefined();
    const email = uniqueEmail('csv');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/dealer-signup',
      payload: application(email, { fullName: '=HYPERLINK("https://evil.example","x")', companyName: '+SUM(1,2)' }),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const csv = await inject(h.app, exportRoute!, { headers: { cookie: adminCookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const line = csv.body.split(/\r?\n/).find((l) => l.includes(email));
    expect(line, 'the new dealer is in the export').toBeDefined();
    for (const cell of line!.split(',')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('scriptable URLs never get stored', () => {
  const BAD = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    ' javascript:alert(1)',
  ];

  it('signup URL fields, the first-order form URL and the video embed code refuse them', async () => {
    for (const bad of BAD) {
      for (const field of ['insuranceCertUrl', 'dealerAgreementUrl', 'logoUrl']) {
        const email = uniqueEmail('url');
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/dealer-signup',
          payload: application(email, {
            tier: 'Authorized',
            entityType: 'LLC',
            salesReps: 1,
            monthlyVolume: 1,
            [field]: bad,
          }),
        });
        expect(res.statusCode, `${field} ${bad}`).toBe(400);
      }
      const form = await h.app.inject({
        method: 'PUT',
        url: '/api/admin/first-order-forms/Affiliate',
        headers: { cookie: adminCookie },
        payload: { formUrl: bad, isRequired: true },
      });
      expect(form.statusCode, `form ${bad}`).toBe(400);
    }
    const videos = await h.db.selectFrom('landingVideos').select(['id']).execute();
    for (const v of videos) {
      for (const code of [
        ...BAD,
        '<iframe src="https://evil.example/"></iframe>',
        '<script src="https://player.vimeo.com/x.js"></script>',
      ]) {
        const res = await h.app.inject({
          method: 'PUT',
          url: `/api/admin/landing-videos/${v.id}`,
          headers: { cookie: adminCookie },
          payload: { title: 'Intro', vimeoEmbedCode: code },
        });
        expect(res.statusCode, `video ${code}`).toBe(400);
      }
    }
    const stored = await h.db.selectFrom('firstOrderForms').select('formUrl').execute();
    for (const f of stored) expect(String(f.formUrl ?? '')).not.toMatch(/script:|data:/i);
  });
});
