import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin } from './helpers';

/** The Activity tab (issue 14): the audit trail filtered and paged on the server, and its CSV. */

let h: Harness;
let owner: string;
let viewer: string;
let dealer: { id: string; email: string };
const T0 = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  h = await createHarness({ limits: { loginPerAccount: { max: 3, windowSec: 60 } } });
  owner = await signInAdmin(h.app, 'act-owner');
  viewer = await signInAdmin(h.app, 'act-viewer');
  await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'act-viewer').execute();
  dealer = await createDealer(h.db, { fullName: 'Dana Timeline' });
  // 120 rows over four days; 30 of them share one timestamp, so the keyset must break ties by id.
  const rows = Array.from({ length: 120 }, (_, i) => ({
    eventType: i % 3 === 0 ? 'dealer.approved' : 'dealer.tier_changed',
    category: 'admin',
    message: i === 7 ? '=HYPERLINK("http://evil.example")' : `row ${i}`,
    dealerId: i % 2 === 0 ? dealer.id : null,
    details: JSON.stringify({ actor: i % 4 === 0 ? 'alice' : 'bob' }),
    ipAddress: '203.0.113.9',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
    userAgentParsed: JSON.stringify({ browser: 'Safari', os: 'iOS', mobile: true }),
    createdAt: i < 30 ? T0 : new Date(T0.getTime() - Math.floor(i / 30) * 86_400_000 - i * 1000),
  }));
  await h.db.insertInto('auditLogs').values(rows).execute();
  // A harness on PGlite migrates in-process: on a loaded machine that alone can take a minute.
}, 180_000);
afterAll(async () => {
  await h?.close();
});

type Page = {
  items: { id: string; actor: string | null; eventType: string; dealerId: string | null; createdAt: string }[];
  nextCursor: string | null;
};
const page = async (q: Record<string, string>, cookie = owner): Promise<Page> => {
  const res = await h.app.inject({ url: `/api/admin/activity?${new URLSearchParams(q)}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
async function all(q: Record<string, string>) {
  const out: Page['items'] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const p: Page = await page({ ...q, limit: '7', ...(cursor ? { cursor } : {}) });
    out.push(...p.items);
    cursor = p.nextCursor;
    if (!cursor) break;
  }
  return out;
}

describe('filters and paging', () => {
  it('pages newest first through ties without repeating or skipping a row', async () => {
    const rows = await all({ from: '2026-03-01', to: '2026-03-31' });
    expect(rows).toHaveLength(120);
    expect(new Set(rows.map((r) => r.id)).size).toBe(120);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      const order = new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || Number(a.id) - Number(b.id);
      expect(order, `${a.id} before ${b.id}`).toBeGreaterThan(0);
    }
  });

  it('filters by actor, event type, dealer and date range, alone and together', async () => {
    const range = { from: '2026-03-01', to: '2026-03-31' };
    expect(await all({ ...range, actor: 'alice' })).toHaveLength(30);
    expect(await all({ ...range, eventType: 'dealer.approved' })).toHaveLength(40);
    expect(await all({ ...range, dealerId: dealer.id })).toHaveLength(60);
    const both = await all({ ...range, actor: 'alice', dealerId: dealer.id, eventType: 'dealer.approved' });
    // i % 4 == 0 (alice, even: the dealer's) and i % 3 == 0: i % 12 == 0.
    expect(both).toHaveLength(10);
    // The day range is inclusive: only the 30 rows of 2026-03-10.
    expect(await all({ from: '2026-03-10', to: '2026-03-10' })).toHaveLength(30);
    expect(await all({ from: '2026-03-11', to: '2026-03-31' })).toHaveLength(0);
  });

  it('a sign-in failure shows with the account it named', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'mallory', password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(401);
    const p = await page({ actor: 'mallory' });
    expect(p.items[0]).toMatchObject({ eventType: 'auth.sign_in_failed', success: false });
  });

  it('a successful sign-in shows the account that signed in as its Actor (issue 36), admin and dealer', async () => {
    const p = await page({ actor: 'act-owner', eventType: 'auth.signed_in' });
    expect(p.items[0]).toMatchObject({ actor: 'act-owner', eventType: 'auth.signed_in' });
    const dana = await createDealer(h.db, { status: 'approved' });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      payload: { username: dana.email, password: 'dealer-pass-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await page({ actor: dana.email })).items[0]).toMatchObject({
      actor: dana.email,
      eventType: 'auth.signed_in',
    });
  });

  it('a lockout shows with the account it protected', async () => {
    const attempt = () =>
      h.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'trudy', password: 'wrong-pass' } });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(429);
    const p = await page({ actor: 'trudy' });
    expect(p.items[0]).toMatchObject({ eventType: 'auth.locked_out', success: false });
    expect(p.items.filter((r) => r.eventType === 'auth.sign_in_failed')).toHaveLength(3);
  });

  it('a viewer reads the trail; bad filters are a 400, never a 500', async () => {
    expect((await page({ eventType: 'dealer.approved', limit: '1' }, viewer)).items).toHaveLength(1);
    for (const q of [
      'from=yesterday',
      'dealerId=nope',
      'cursor=abc',
      'limit=0',
      'limit=1000',
      `actor=${'x'.repeat(300)}`,
    ]) {
      const res = await h.app.inject({ url: `/api/admin/activity?${q}`, headers: { cookie: owner } });
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('CSV export', () => {
  it('streams the filtered rows, formula-safe; a viewer may not export', async () => {
    const res = await h.app.inject({
      url: `/api/admin/activity/export?dealerId=${dealer.id}&from=2026-03-01&to=2026-03-31`,
      headers: { cookie: owner },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Time,Actor,Event,Success,Message,Dealer ID,Dealer,IP,User Agent,Browser,OS,Error');
    expect(lines).toHaveLength(61);
    expect(lines.slice(1).every((l) => l.includes(dealer.id) && l.includes('Dana Timeline'))).toBe(true);
    expect(res.body).not.toContain('HYPERLINK');
    const all = await h.app.inject({ url: '/api/admin/activity/export?actor=bob', headers: { cookie: owner } });
    expect(all.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    const refused = await h.app.inject({ url: '/api/admin/activity/export', headers: { cookie: viewer } });
    expect(refused.statusCode).toBe(403);
  });
});
