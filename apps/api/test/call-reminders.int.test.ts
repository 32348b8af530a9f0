import { describe, expect, it } from 'vitest';
import { sendCallReminders } from '../src/services/calls/reminders';
import { LEASE_MS, Scheduler } from '../src/services/scheduler/scheduler';
import { SWEEPS } from '../src/services/scheduler/sweeps';
import { signInAdmin } from './helpers';
import { deferred, twoInstancesForFile } from './instances';

/**
 * Issue 38: the free call's reminder 24 hours before, sent once across two instances and across a
 * restart in the middle of the sweep; its one-time reschedule/cancel link; an admin's no-show.
 */
const t = twoInstancesForFile();
const { clock } = t;
const setNow = (iso: string) => t.setNow(iso);
const reminderSweep = SWEEPS.find((s) => s.name === 'calls.reminders')!;

let n = 0;
async function book(preferredDate: string, preferredTime: 'morning' | 'afternoon' | 'evening') {
  const email = `caller${++n}.${Date.now().toString(36)}@example.com`;
  const res = await t.a.app.inject({
    method: 'POST',
    url: '/api/schedule-call',
    payload: { name: `Caller ${n}`, email, phone: '(512) 555-0100', preferredDate, preferredTime },
  });
  expect(res.statusCode).toBe(200);
  return { id: res.json().id as string, email };
}
const reminders = (email: string) =>
  t.a.db
    .selectFrom('emailOutbox')
    .select(['textBody', 'subject'])
    .where('toAddress', '=', email)
    .where('kind', '=', 'call_reminder')
    .execute();
const linkOf = async (email: string) => {
  const [m] = await reminders(email);
  return /https:\/\/dealers\.test\/call\/([A-Za-z0-9_-]{43})/.exec(m!.textBody)![1]!;
};
const callRow = (id: string) =>
  t.a.db.selectFrom('callSchedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

// Tuesday 2026-12-15: morning starts 09:00 in New York (14:00 UTC), afternoon 12:00 (17:00 UTC).
describe('the free call reminder', () => {
  it('is sent once, 24 hours before the window, when two instances sweep at the same time', async () => {
    const call = await book('2026-12-15', 'morning');
    setNow('2026-12-14T13:30:00Z'); // 24.5 hours before
    expect(await sendCallReminders(t.a.app.deps)).toBe(0);
    setNow('2026-12-14T14:30:00Z'); // 23.5 hours before
    const [x, y] = await Promise.all([sendCallReminders(t.a.app.deps), sendCallReminders(t.b.app.deps)]);
    expect(x + y).toBe(1);
    expect(await sendCallReminders(t.b.app.deps)).toBe(0);
    const sent = await reminders(call.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe(
      'Reminder: your call Tuesday, December 15, 2026, morning (9 AM - 12 PM Eastern Time (ET))',
    );
    expect((await callRow(call.id)).reminderSentAt).not.toBeNull();
  });

  it('is sent once and not lost when an instance dies in the middle of the sweep', async () => {
    const first = await book('2026-12-15', 'afternoon');
    setNow('2026-12-14T18:00:00Z'); // 23 hours before the afternoon window
    // Instance A claims the sweep and dies before it acts: its lease holds the sweep until it expires.
    const claimed = deferred();
    const dying = new Scheduler(t.a.app.deps, [
      {
        ...reminderSweep,
        run: () => {
          claimed.resolve();
          return new Promise<number>(() => {});
        },
      },
    ]);
    void dying.tick();
    await claimed.promise;
    const survivor = new Scheduler(t.b.app.deps, [reminderSweep]);
    expect(await survivor.tick()).toEqual([]);
    expect(await reminders(first.email)).toHaveLength(0);
    clock.advance(LEASE_MS + 1_000);
    expect(await survivor.tick()).toEqual([{ name: 'calls.reminders', ok: true, handled: 1 }]);
    expect(await reminders(first.email)).toHaveLength(1);

    // Instance A runs the sweep to the end (its reminder committed) and dies before recording the run.
    const second = await book('2026-12-15', 'evening');
    setNow('2026-12-14T23:00:00Z'); // 23 hours before the evening window (17:00 in New York, 22:00 UTC)
    const effected = deferred();
    const halfDone = new Scheduler(t.a.app.deps, [
      {
        ...reminderSweep,
        run: async (deps) => {
          await reminderSweep.run(deps);
          effected.resolve();
          return new Promise<number>(() => {});
        },
      },
    ]);
    void halfDone.tick();
    await effected.promise;
    expect(await reminders(second.email)).toHaveLength(1);
    expect(await survivor.tick()).toEqual([]);
    clock.advance(LEASE_MS + 1_000);
    expect(await survivor.tick()).toEqual([{ name: 'calls.reminders', ok: true, handled: 0 }]);
    expect(await reminders(second.email)).toHaveLength(1);
  });
});

describe("the reminder's reschedule/cancel link", () => {
  const manage = (token: string, action?: 'cancel' | 'reschedule', payload?: object) =>
    t.a.app.inject({
      method: action ? 'POST' : 'GET',
      url: `/api/calls/manage/${token}${action ? `/${action}` : ''}`,
      ...(payload ? { payload } : {}),
    });

  it('shows the call and moves it once, without signing in; bad input changes nothing', async () => {
    const call = await book('2026-12-16', 'morning');
    setNow('2026-12-15T15:00:00Z');
    await sendCallReminders(t.a.app.deps);
    const token = await linkOf(call.email);
    const seen = await manage(token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({
      name: expect.any(String),
      preferredDate: '2026-12-16',
      preferredTime: 'morning',
      status: 'scheduled',
    });

    const bad = await manage(token, 'reschedule', { preferredDate: '2026-12-18', preferredTime: 'midnight' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('preferredTime');
    const past = await manage(token, 'reschedule', { preferredDate: '2020-01-02', preferredTime: 'evening' });
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain('preferredDate');
    expect(await callRow(call.id)).toMatchObject({ preferredDate: '2026-12-16', preferredTime: 'morning' });

    const moved = await manage(token, 'reschedule', { preferredDate: '2026-12-18', preferredTime: 'evening' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ preferredDate: '2026-12-18', preferredTime: 'evening', status: 'scheduled' });
    const row = await callRow(call.id);
    expect(row).toMatchObject({ reminderSentAt: null, manageTokenHash: null });
    const confirmations = await t.a.db
      .selectFrom('emailOutbox')
      .select('subject')
      .where('toAddress', '=', call.email)
      .where('kind', '=', 'call_confirmation')
      .execute();
    expect(confirmations.map((m) => m.subject)).toContain(
      'Your call is booked: Friday, December 18, 2026, evening (5 PM - 8 PM Eastern Time (ET))',
    );
    // Used once: the link is dead now.
    expect((await manage(token)).statusCode).toBe(404);
    expect((await manage(token, 'cancel')).statusCode).toBe(404);
    // The new slot gets its own reminder.
    setNow('2026-12-17T23:00:00Z');
    await sendCallReminders(t.a.app.deps);
    expect(await reminders(call.email)).toHaveLength(2);
  });

  it('cancels once under two simultaneous requests; unknown and malformed links are refused', async () => {
    const call = await book('2026-12-21', 'afternoon');
    setNow('2026-12-20T18:00:00Z');
    await sendCallReminders(t.a.app.deps);
    const token = await linkOf(call.email);
    const [x, y] = await Promise.all([manage(token, 'cancel'), manage(token, 'cancel')]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 404]);
    expect((await callRow(call.id)).status).toBe('cancelled');
    const cancelled = await t.a.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('eventType', '=', 'call.cancelled')
      .execute();
    expect(cancelled).toHaveLength(1);
    expect((await manage('A'.repeat(43))).statusCode).toBe(404);
    const malformed = await manage('not-a-token');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('token');
  });

  it('stops working when the window starts', async () => {
    const call = await book('2026-12-22', 'morning');
    setNow('2026-12-21T15:00:00Z');
    await sendCallReminders(t.a.app.deps);
    const token = await linkOf(call.email);
    setNow('2026-12-22T14:00:01Z');
    expect((await manage(token)).statusCode).toBe(404);
    expect((await manage(token, 'cancel')).statusCode).toBe(404);
    expect((await callRow(call.id)).status).toBe('scheduled');
  });
});

describe('no-show', () => {
  it('reviewers mark a call no_show; viewers, visitors and bad statuses are refused', async () => {
    const call = await book('2026-12-23', 'morning');
    const reviewer = await signInAdmin(t.a.app, `rev-${n}`);
    await t.a.db.updateTable('admins').set({ role: 'reviewer' }).where('username', '=', `rev-${n}`).execute();
    const viewer = await signInAdmin(t.a.app, `view-${n}`);
    await t.a.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', `view-${n}`).execute();
    const mark = (status: string, cookie?: string) =>
      t.a.app.inject({
        method: 'POST',
        url: `/api/admin/call-schedules/${call.id}/status`,
        payload: { status },
        ...(cookie ? { headers: { cookie } } : {}),
      });
    expect((await mark('no_show')).statusCode).toBe(401);
    expect((await mark('no_show', viewer)).statusCode).toBe(403);
    const bad = await mark('vanished', reviewer);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('status');
    expect((await callRow(call.id)).status).toBe('scheduled');
    expect((await mark('no_show', reviewer)).statusCode).toBe(200);
    expect((await callRow(call.id)).status).toBe('no_show');
    const audit = await t.a.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('eventType', '=', 'call.no_show')
      .execute();
    expect(audit).toHaveLength(1);
  });
});
