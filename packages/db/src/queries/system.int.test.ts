import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, planWithoutSorting, SORT_NODE, type TestDatabase } from '../testing';
import { latestFailedMail, readSystemFigures, systemFiguresSql } from './system';

/** The operator's figures (issue 40): what they count, and that a scrape reads indexes, not the outbox. */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

const mail = (status: 'pending' | 'sending' | 'sent' | 'failed', createdAt: Date, toAddress = 'a@example.com') => ({
  kind: 'test',
  toAddress,
  subject: 's',
  textBody: 't',
  status,
  createdAt,
  lastError: status === 'failed' ? 'refused' : null,
});

describe('system figures', () => {
  it('counts the waiting and failed emails and the oldest waiting age, by the given clock', async () => {
    const now = new Date();
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    await t.db
      .insertInto('emailOutbox')
      .values([
        mail('pending', ago(600)),
        mail('sending', ago(90), 'b@example.com'),
        mail('sent', ago(5000)),
        mail('failed', ago(7000)),
      ])
      .execute();
    const f = await readSystemFigures(t.db, now);
    expect(f).toMatchObject({ mailWaiting: 2, mailFailed: 1, lastBackupAt: null });
    expect(Math.round(f.mailOldestSeconds)).toBe(600);
    expect((await latestFailedMail(t.db, 10)).map((m) => m.lastError)).toEqual(['refused']);
  });

  it("counts the scheduler's sweeps: due, overdue (an interval and a minute past due, not running), failing", async () => {
    const now = new Date();
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    const later = new Date(now.getTime() + 60_000);
    const sweep = (name: string, nextRunAt: Date, extra: object = {}) => ({
      name,
      everySeconds: 60,
      nextRunAt,
      ...extra,
    });
    await t.db
      .insertInto('scheduledSweeps')
      .values([
        sweep('t.later', later),
        sweep('t.due', ago(10)),
        sweep('t.stuck', ago(200)),
        sweep('t.running', ago(200), { runningUntil: later }),
        sweep('t.failing', later, { failures: 2 }),
      ])
      .execute();
    expect(await readSystemFigures(t.db, now)).toMatchObject({ tasksDue: 2, tasksOverdue: 1, tasksFailed: 1 });
  });

  it("counts the jobs waiting for an installer (offered or unrouted) and the oldest one's age", async () => {
    const now = new Date();
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    const job = (status: 'offered' | 'unrouted' | 'accepted' | 'installed' | 'cancelled', createdAt: Date) => ({
      origin: 'quote' as const,
      status,
      homeownerName: 'H',
      homeownerEmail: 'h@example.com',
      homeownerPhone: '+15125550199',
      street: '1 Elm St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      latitude: 30.27,
      longitude: -97.74,
      createdAt,
    });
    expect(await readSystemFigures(t.db, now)).toMatchObject({ jobsWaiting: 0, jobsOldestSeconds: 0 });
    await t.db
      .insertInto('jobs')
      .values([
        job('offered', ago(300)),
        job('unrouted', ago(7200)),
        job('accepted', ago(9000)),
        job('installed', ago(99_000)),
        job('cancelled', ago(99_000)),
      ])
      .execute();
    const f = await readSystemFigures(t.db, now);
    expect(f.jobsWaiting).toBe(2);
    expect(Math.round(f.jobsOldestSeconds ?? -1)).toBe(7200);
  });

  it('reads the outbox and the backups through their indexes, with no sort', async () => {
    const plan = await planWithoutSorting(t, systemFiguresSql(new Date()));
    // The waiting emails through an index of theirs (the queue's or the recipients' partial index,
    // the planner's choice), never by reading the outbox through.
    expect(plan).toMatch(/"Index Name":"email_outbox_(queue_priority|recipient_order)_idx"/);
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"[^{}]*"Relation Name":"email_outbox"/);
    expect(plan).toContain('"Index Name":"email_outbox_failed_idx"');
    expect(plan).toContain('"Index Name":"backup_runs_started_idx"');
    // The waiting jobs through (status, created_at), never by reading the jobs through.
    expect(plan).toContain('"Index Name":"jobs_status_created_idx"');
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"[^{}]*"Relation Name":"jobs"/);
    expect(plan).not.toMatch(SORT_NODE);
    const failed = await planWithoutSorting(
      t,
      sql`select id from email_outbox where status = 'failed' order by next_attempt_at desc limit 10`,
    );
    expect(failed).toContain('"Index Name":"email_outbox_failed_idx"');
    expect(failed).not.toMatch(SORT_NODE);
  });
});
