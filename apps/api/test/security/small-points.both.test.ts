import { BULK_BATCH_SIZE } from '@dn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, sha256 } from '../../src/lib/tokens';
import { appLoggingTo, createDealer, createHarness, type Harness, signInAdmin, uniqueEmail } from '../helpers';
import { application, booking, inject, routes } from './support';

/**
 * Issue 35, finding 11 (the points of this file): viewers get the CSV export's field rule on JSON
 * too; the application status page keeps `Referrer-Policy: no-referrer` and its path token stays
 * out of the request log; signup answers alike whether or not the email exists; bulk "approve all
 * matching" fixes its set when it starts.
 */

let h: Harness;
let owner: string;
let viewer: string;
beforeAll(async () => {
  h = await createHarness();
  owner = await signInAdmin(h.app, 'small-owner');
  viewer = await signInAdmin(h.app, 'small-viewer');
  await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'small-viewer').execute();
});
afterAll(async () => {
  await h?.close();
});

describe('viewers see no personal fields in JSON, as in the CSV export', () => {
  const IP = '10.77.7.7';
  const UA = 'ViewerTargetAgent/9.1';
  const PHONE = '+15559876543';
  let target: { id: string; email: string };

  beforeAll(async () => {
    target = await createDealer(h.db, {
      status: 'active',
      email: uniqueEmail('viewer-target'),
      fullName: 'Vic Target',
    });
    await h.db.updateTable('dealers').set({ phoneE164: PHONE }).where('id', '=', target.id).execute();
    // A sign-in and a failed one from the dealer's own browser, a call booking and a tracking event:
    // audit rows with the address, user agent and email.
    const headers = { 'user-agent': UA };
    for (const password of ['wrong-password-1', 'dealer-pass-1']) {
      await h.app.inject({
        method: 'POST',
        url: '/api/dealer/login',
        remoteAddress: IP,
        headers,
        payload: { username: target.email, password },
      });
    }
    const call = await h.app.inject({
      method: 'POST',
      url: '/api/schedule-call',
      remoteAddress: IP,
      headers,
      payload: booking(target.email, { phone: '5559876543' }),
    });
    expect(call.statusCode, call.body).toBe(200);
  });

  const secrets = () => [target.email, PHONE, '5559876543', IP, UA];
  const leaks = (body: string) => secrets().filter((s) => body.includes(s));

  it('every admin JSON route a viewer may read (live REST table) shows none of them; an owner sees them', async () => {
    const readable = routes().filter(
      (r) => r.access === 'admin' && r.method === 'GET' && (r.role ?? 'viewer') === 'viewer',
    );
    expect(readable.length).toBeGreaterThan(10);
    for (const route of readable) {
      const res = await inject(h.app, route, { params: { id: target.id }, headers: { cookie: viewer } });
      expect(res.statusCode, route.url).toBeLessThan(500);
      expect(leaks(res.body), `${route.url} (${res.statusCode})`).toEqual([]);
    }
    // The same over tRPC, and the searches that find the dealer.
    for (const url of [
      `/api/admin/dealers?q=${encodeURIComponent('Vic Target')}`,
      `/api/admin/dealer-options?q=${encodeURIComponent('Vic')}`,
      `/api/admin/activity?dealerId=${target.id}`,
      `/trpc/admin.dealers?input=${encodeURIComponent(JSON.stringify({ q: 'Vic Target' }))}`,
      `/trpc/activity.list?input=${encodeURIComponent(JSON.stringify({}))}`,
      '/trpc/admin.callSchedules',
    ]) {
      const res = await h.app.inject({ url, headers: { cookie: viewer } });
      expect(res.statusCode, url).toBe(200);
      expect(leaks(res.body), url).toEqual([]);
    }
    // An owner reads them: the test looks where they are.
    const ownerSees = [
      await h.app.inject({
        url: `/api/admin/dealers?q=${encodeURIComponent('Vic Target')}`,
        headers: { cookie: owner },
      }),
      await h.app.inject({ url: '/api/admin/activity', headers: { cookie: owner } }),
      await h.app.inject({ url: '/api/admin/call-schedules', headers: { cookie: owner } }),
    ]
      .map((r) => r.body)
      .join('\n');
    expect(leaks(ownerSees).sort()).toEqual(secrets().sort());
  });

  it('a viewer still gets the CSV export refused (the same rule)', async () => {
    for (const url of ['/api/admin/dealers/export', '/api/admin/activity/export']) {
      expect((await h.app.inject({ url, headers: { cookie: viewer } })).statusCode).toBe(403);
    }
  });
});

describe('the application status page', () => {
  let token: string;
  beforeAll(async () => {
    const d = await createDealer(h.db, { status: 'pending', password: null });
    token = randomToken();
    await h.db
      .insertInto('applicationStatusLinks')
      .values({ dealerId: d.id, tokenHash: sha256(token) })
      .execute();
  });

  it('keeps Referrer-Policy: no-referrer, page and API alike', async () => {
    for (const url of [`/application/${token}`, `/api/application-status/${token}`]) {
      const res = await h.app.inject({ url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('its path token never reaches the request log', async () => {
    const lines: string[] = [];
    const app = await appLoggingTo(h.database, lines);
    try {
      const tRPC = `/trpc/site.applicationStatus?input=${encodeURIComponent(JSON.stringify({ token }))}`;
      for (const url of [`/application/${token}`, `/api/application-status/${token}`, tRPC]) {
        expect((await app.inject({ url })).statusCode, url).toBeLessThan(500);
      }
      expect(lines.filter((l) => l.includes('"request"')).length).toBeGreaterThanOrEqual(3);
      expect(lines.join('\n')).not.toContain(token);
      expect(lines.join('\n')).toContain('/application/[redacted]');
    } finally {
      await app.close();
    }
  });
});

describe('signup answers alike whether or not the email exists', () => {
  const post = (payload: object, ip: string) =>
    h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload, remoteAddress: ip });

  it('a taken email (any case) gets the same status and body as a new one; the owner of the address is told by email', async () => {
    const existing = await createDealer(h.db, { status: 'active', email: uniqueEmail('taken') });
    const fresh = await post(application(uniqueEmail('fresh')), '10.11.0.1');
    const taken = await post(application(existing.email.toUpperCase()), '10.11.0.2');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(taken.body).not.toMatch(/already/i);
    const mail = await h.db
      .selectFrom('emailOutbox')
      .select(['kind', 'subject'])
      .where('dealerId', '=', existing.id)
      .execute();
    expect(mail.map((m) => m.kind)).toContain('application_exists');
    // Nothing else was stored under the address.
    const rows = await h.db.selectFrom('dealers').select('id').where('email', 'ilike', existing.email).execute();
    expect(rows).toHaveLength(1);
  });

  it('within the per-recipient budget: 20 concurrent signups for a taken email send at most 5 emails, and answer as for a new email', async () => {
    const strict = await createHarness({
      database: h.database,
      limits: { mailPerRecipient: { max: 5, windowSec: 3600 } },
    });
    try {
      const existing = await createDealer(h.db, { status: 'active', email: uniqueEmail('taken-flood') });
      const newEmail = uniqueEmail('new-flood');
      const burst = (email: string, base: number) =>
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            strict.app.inject({
              method: 'POST',
              url: '/api/dealer-signup',
              remoteAddress: `10.12.${base}.${i + 1}`,
              payload: application(email),
            }),
          ),
        );
      const [taken, fresh] = [await burst(existing.email, 1), await burst(newEmail, 2)];
      const tally = (rs: { statusCode: number }[]) => rs.map((r) => r.statusCode).sort();
      expect(tally(taken)).toEqual(tally(fresh));
      expect(new Set(taken.map((r) => r.statusCode))).toEqual(new Set([200, 429]));
      const sent = await h.db.selectFrom('emailOutbox').select('id').where('toAddress', '=', existing.email).execute();
      expect(sent.length).toBeLessThanOrEqual(5);
      expect(sent.length).toBeGreaterThan(0);
    } finally {
      await strict.app.close();
    }
  });
});

describe('bulk "approve all matching" fixes its set when it starts', () => {
  it('a signup arriving while the action runs is not taken', async () => {
    const tag = `bulkfix${Date.now().toString(36)}`;
    const n = BULK_BATCH_SIZE + 1;
    await h.db
      .insertInto('dealers')
      .values(
        Array.from({ length: n }, (_, i) => ({
          email: `${tag}.${i}@example.com`,
          fullName: `${tag} Applicant ${i}`,
          tier: 'Affiliate' as const,
          status: 'pending' as const,
          phoneE164: '+15551234567',
          addressJson: JSON.stringify({ street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' }),
          updatedAt: new Date(),
        })),
      )
      .execute();
    const reviewer = await signInAdmin(h.app, 'bulk-reviewer');
    const start = await h.app.inject({
      method: 'POST',
      url: '/api/admin/review/bulk',
      headers: { cookie: reviewer },
      payload: { selection: { filter: { q: tag, status: 'pending' } }, decision: { kind: 'approve' } },
    });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json()).toMatchObject({ done: false, total: n, processed: BULK_BATCH_SIZE });

    // A signup arrives while the action runs; its id sorts after every one decided so far.
    const late = await h.db
      .insertInto('dealers')
      .values({
        id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
        email: `${tag}.late@example.com`,
        fullName: `${tag} Applicant late`,
        tier: 'Affiliate',
        status: 'pending',
        phoneE164: '+15551234567',
        addressJson: JSON.stringify({ street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' }),
        updatedAt: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    let summary = start.json();
    while (!summary.done) {
      const next = await h.app.inject({
        method: 'POST',
        url: `/api/admin/review/actions/${summary.id}/continue`,
        headers: { cookie: reviewer },
      });
      expect(next.statusCode, next.body).toBe(200);
      summary = next.json();
    }
    expect(summary).toMatchObject({ done: true, total: n, changed: n });
    const [lateRow] = await h.db.selectFrom('dealers').select('status').where('id', '=', late.id).execute();
    expect(lateRow?.status).toBe('pending');
  });
});
