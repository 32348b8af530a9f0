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

  it('reads the outbox and the backups through their indexes, with no sort', async () => {
    const plan = await planWithoutSorting(t, systemFiguresSql(new Date()));
    expect(plan).toContain('"Index Name":"email_outbox_queue_idx"');
    expect(plan).toContain('"Index Name":"email_outbox_failed_idx"');
    expect(plan).toContain('"Index Name":"backup_runs_started_idx"');
    expect(plan).not.toMatch(SORT_NODE);
    const failed = await planWithoutSorting(
      t,
      sql`select id from email_outbox where status = 'failed' order by next_attempt_at desc limit 10`,
    );
    expect(failed).toContain('"Index Name":"email_outbox_failed_idx"');
    expect(failed).not.toMatch(SORT_NODE);
  });
});
