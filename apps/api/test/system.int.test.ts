import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { SAMPLE_SECONDS, sampleSystem } from '../src/services/system/sweeps';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';

/** The admin's System page (issue 40): its figures, its access, and the samples its chart draws. */

const clock = new ShiftedClock();
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ clock });
});
afterAll(() => h?.close());

describe('GET /api/admin/system', () => {
  it('is refused to visitors (401) and dealers (403), and shows any admin the queues, failures and backups', async () => {
    expect((await h.app.inject({ url: '/api/admin/system' })).statusCode).toBe(401);
    const dealer = await createDealer(h.db);
    const dealerCookie = await signInDealer(h.app, dealer.email);
    expect((await h.app.inject({ url: '/api/admin/system', headers: { cookie: dealerCookie } })).statusCode).toBe(403);

    await h.db
      .insertInto('emailOutbox')
      .values({
        kind: 'call-confirmation',
        toAddress: 'gone@example.com',
        subject: 'Your call',
        textBody: 'Hello',
        status: 'failed',
        attempts: 8,
        lastError: '550 5.1.1 mailbox unavailable',
      })
      .execute();
    const admin = await signInAdmin(h.app);
    const res = await h.app.inject({ url: '/api/admin/system', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.queues).toMatchObject({
      mailFailed: 1,
      tasksDue: 0,
      tasksFailed: 0,
      jobsWaiting: 0,
      jobsOldestSeconds: 0,
    });
    expect(body.failures).toEqual([
      expect.objectContaining({ toAddress: 'gone@example.com', attempts: 8, error: '550 5.1.1 mailbox unavailable' }),
    ]);
    expect(body.backups).toEqual([]);
    expect(body.samples).toEqual([]);
  });

  it("shows the last backup's verification: when, whether it read back, its size (issue 46)", async () => {
    const at = new Date('2026-11-29T03:00:00.000Z');
    await h.db
      .insertInto('backupRuns')
      .values({
        trigger: 'scheduled',
        file: '/backups/dealer-network-x.dnbackup',
        schemaVersion: 'v',
        startedAt: at,
        finishedAt: at,
        bytes: '2936012',
        encrypted: true,
        verifiedAt: at,
        verifyError: null,
      })
      .execute();
    const admin = await signInAdmin(h.app);
    const body = (await h.app.inject({ url: '/api/admin/system', headers: { cookie: admin } })).json();
    expect(body.backups[0]).toMatchObject({
      bytes: 2936012,
      encrypted: true,
      verifiedAt: at.toISOString(),
      verifyError: null,
      error: null,
    });
    await h.db.deleteFrom('backupRuns').execute();
  });
});

describe('the samples sweep', () => {
  it('writes one sample per 5-minute slot (once, however often it runs) and keeps 24 hours of them', async () => {
    expect(await sampleSystem(h.app.deps)).toBe(1);
    expect(await sampleSystem(h.app.deps)).toBe(0); // the same slot: written once
    for (let i = 0; i < 3; i++) {
      clock.advance(SAMPLE_SECONDS * 1000);
      expect(await sampleSystem(h.app.deps)).toBe(1);
    }
    const samples = await h.db.selectFrom('systemSamples').select(['takenAt', 'figures']).execute();
    expect(samples).toHaveLength(4);
    expect(samples[0]!.figures).toMatchObject({ mailWaiting: 0, mailFailed: 1 });
    clock.advance(24 * 3_600_000 + 1);
    expect(await sampleSystem(h.app.deps)).toBe(1);
    expect(await h.db.selectFrom('systemSamples').select('takenAt').execute()).toHaveLength(1);

    const admin = await signInAdmin(h.app);
    const body = (await h.app.inject({ url: '/api/admin/system', headers: { cookie: admin } })).json();
    expect(body.samples).toEqual([expect.objectContaining({ mailFailed: 1 })]);
  });
});
