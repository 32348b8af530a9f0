import { createServer } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../src/lib/tokens';
import { enqueueMail, MailService } from '../src/services/mail/outbox';
import { startSmtp } from './smtp';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const log = pino({ level: 'silent' });

async function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('mail outbox', () => {
  it('delivers queued messages, with attachments, to a real SMTP server', async () => {
    const smtp = await startSmtp();
    const mail = new MailService(t.db, { smtpUrl: smtp.url, from: 'Test <t@test.local>', log });
    try {
      await t.db.transaction().execute((trx) =>
        enqueueMail(trx, {
          kind: 'test',
          to: 'someone@example.com',
          subject: 'Hello there',
          text: 'Plain body',
          attachments: [{ filename: 'call.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
        }),
      );
      expect(await mail.flush()).toBe(1);
      const got = await smtp.waitFor('someone@example.com', /Hello there/);
      expect(got.text).toContain('Plain body');
      expect(got.attachments[0]).toMatchObject({ filename: 'call.ics', content: 'BEGIN:VCALENDAR' });
      const row = await t.db
        .selectFrom('emailOutbox')
        .selectAll()
        .where('subject', '=', 'Hello there')
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      expect(row.sentAt).not.toBeNull();
      // Its Message-ID is the row's: a copy sent again after a crash is recognised as the same message.
      expect(got.headers['message-id']).toBe(`<${row.id}@test.local>`);
    } finally {
      await mail.stop();
      await smtp.close();
    }
  });

  it('REPLY_TO: the emails that ask for a reply leave with it as Reply-To, the others without (issue 36)', async () => {
    const smtp = await startSmtp();
    const mail = new MailService(t.db, {
      smtpUrl: smtp.url,
      from: 'Test <no-reply@test.local>',
      replyTo: 'Dealer Team <team@test.local>',
      log,
    });
    try {
      await t.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, { kind: 'rejection', to: 'rejected@example.com', subject: 'Not approved', text: 'x' });
        await enqueueMail(trx, { kind: 'password_reset', to: 'reset@example.com', subject: 'Reset', text: 'y' });
      });
      await mail.flush();
      expect((await smtp.waitFor('rejected@example.com', /Not approved/)).replyTo).toBe('team@test.local');
      expect((await smtp.waitFor('reset@example.com', /Reset/)).replyTo).toBeUndefined();
    } finally {
      await mail.stop();
      await smtp.close();
    }
  });

  it('once sent, the stored bodies lose every one-time token (the schema format), and only whole tokens', async () => {
    const smtp = await startSmtp();
    const mail = new MailService(t.db, { smtpUrl: smtp.url, from: 'Test <t@test.local>', log });
    const token = randomToken();
    const longer = `${randomToken()}x`; // 44 characters: not a token, kept as it is
    try {
      await enqueueMail(t.db, {
        kind: 'test',
        to: 'scrub@example.com',
        subject: 'Scrub me',
        text: `Open https://dealers.test/login?token=${token} now. Reference ${longer}.`,
        html: `<a href="https://dealers.test/login?token=${token}">Set up</a> ${longer}`,
      });
      expect(await mail.flush()).toBe(1);
      const got = await smtp.waitFor('scrub@example.com', /Scrub me/);
      expect(got.text).toContain(`token=${token}`);
      const row = await t.db
        .selectFrom('emailOutbox')
        .select(['textBody', 'htmlBody', 'status'])
        .where('subject', '=', 'Scrub me')
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      expect(row.textBody).toBe(`Open https://dealers.test/login?token=[removed] now. Reference ${longer}.`);
      expect(row.htmlBody).toBe(`<a href="https://dealers.test/login?token=[removed]">Set up</a> ${longer}`);
    } finally {
      await mail.stop();
      await smtp.close();
    }
  });

  it('keeps a message when the server is down and sends it once it is back', async () => {
    const down = new MailService(t.db, { smtpUrl: `smtp://127.0.0.1:${await deadPort()}`, from: 't@test.local', log });
    await enqueueMail(t.db, { kind: 'test', to: 'later@example.com', subject: 'Retry me', text: 'body' });
    await down.flush();
    await down.stop();
    const failed = await t.db
      .selectFrom('emailOutbox')
      .selectAll()
      .where('subject', '=', 'Retry me')
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('pending');
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toBeTruthy();
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Due again (as the backoff would make it later), with the server up.
    await t.db
      .updateTable('emailOutbox')
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where('id', '=', failed.id)
      .execute();
    const smtp = await startSmtp();
    const up = new MailService(t.db, { smtpUrl: smtp.url, from: 't@test.local', log });
    try {
      await up.flush();
      await smtp.waitFor('later@example.com', /Retry me/);
      const sent = await t.db
        .selectFrom('emailOutbox')
        .select(['status', 'attempts'])
        .where('id', '=', failed.id)
        .executeTakeFirstOrThrow();
      expect(sent).toEqual({ status: 'sent', attempts: 2 });
    } finally {
      await up.stop();
      await smtp.close();
    }
  });

  it('without SMTP_URL logs the message and keeps it in the outbox', async () => {
    const mail = new MailService(t.db, { smtpUrl: undefined, from: 't@test.local', log });
    await enqueueMail(t.db, { kind: 'test', to: 'dev@example.com', subject: 'Logged only', text: 'link' });
    await mail.flush();
    const row = await t.db
      .selectFrom('emailOutbox')
      .select('status')
      .where('subject', '=', 'Logged only')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('logged');
  });

  it('never sends a message whose transaction rolled back', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, { kind: 'test', to: 'ghost@example.com', subject: 'Rolled back', text: 'x' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await t.db.selectFrom('emailOutbox').select('id').where('subject', '=', 'Rolled back').execute();
    expect(rows).toEqual([]);
  });
});
