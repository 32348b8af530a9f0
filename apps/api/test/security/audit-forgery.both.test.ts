import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, signInAdmin } from '../helpers';

/**
 * Issue 35, finding 9: an anonymous caller of track-event named any admin as the actor of its
 * audit row (its `details` were spread after the actor), so the Activity tab showed it under that
 * admin's name. The actor, IP and user agent come from the request context only; the caller's
 * details are kept under `details.client`, where nothing reads them as the actor.
 */

let h: Harness;
let owner: string;
beforeAll(async () => {
  h = await createHarness();
  owner = await signInAdmin(h.app, 'forgery-owner');
});
afterAll(async () => {
  await h?.close();
});

const FORGED = {
  actor: 'forgery-owner',
  account: 'forgery-owner',
  actorId: '00000000-0000-4000-8000-000000000001',
  actorRole: 'admin',
  ipAddress: '1.2.3.4',
  userAgent: 'Forged/1.0',
  url: 'https://dealers.test/?r=rita-01',
};

const track = (headers: Record<string, string>, remoteAddress: string, details: Record<string, unknown> = FORGED) =>
  h.app.inject({
    method: 'POST',
    url: '/api/affiliate/track-event',
    remoteAddress,
    headers: { 'user-agent': 'RealBrowser/2.0', ...headers },
    payload: { eventType: 'url_capture', recruiterId: 'rita-01', details },
  });

const lastTracked = () =>
  h.db
    .selectFrom('auditLogs')
    .select(['details', 'ipAddress', 'userAgent'])
    .where('eventType', '=', 'affiliate.url_capture')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

describe('track-event cannot forge who did it', () => {
  it('an anonymous call naming an admin as actor: no actor in the row, the real IP and user agent, and the Activity tab shows nothing under that admin', async () => {
    const res = await track({}, '10.35.9.1');
    expect(res.statusCode).toBe(200);
    const row = await lastTracked();
    const details = row.details as Record<string, unknown>;
    expect(details.actor).toBeUndefined();
    expect(details.account).toBeUndefined();
    expect(details.actorId).toBeUndefined();
    expect(details.actorRole).toBeUndefined();
    expect(row.ipAddress).toBe('10.35.9.1');
    expect(row.userAgent).toBe('RealBrowser/2.0');
    // What the caller sent is kept, under its own key.
    expect(details.client).toEqual(FORGED);

    const activity = await h.app.inject({
      url: '/api/admin/activity?actor=forgery-owner&eventType=affiliate.url_capture',
      headers: { cookie: owner },
    });
    expect(activity.statusCode).toBe(200);
    expect(activity.json().items).toEqual([]);
  });

  it('a signed-in admin calling it is the actor, whatever the details say', async () => {
    const other = await signInAdmin(h.app, 'forgery-other');
    const res = await track({ cookie: other }, '10.35.9.2', { ...FORGED, actor: 'forgery-owner' });
    expect(res.statusCode).toBe(200);
    const details = (await lastTracked()).details as Record<string, unknown>;
    expect(details.actor).toBe('forgery-other');
    expect((details.client as Record<string, unknown>).actor).toBe('forgery-owner');
  });

  it('20 concurrent forged calls from 20 addresses: every row has its own address and no forged actor', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => track({}, `10.35.10.${i + 1}`)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const rows = await h.db
      .selectFrom('auditLogs')
      .select(['details', 'ipAddress'])
      .where('eventType', '=', 'affiliate.url_capture')
      .where('ipAddress', 'like', '10.35.10.%')
      .execute();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.ipAddress)).size).toBe(20);
    for (const r of rows) expect((r.details as Record<string, unknown>).actor).toBeUndefined();
  });
});
