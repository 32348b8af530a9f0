import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, uniqueEmail } from '../helpers';
import { startSmtp } from '../smtp';
import { freePort } from './processes';
import { application, booking } from './support';

/** An email server that is down never fails a signup or loses its message. */

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses.reverse()) await h.close().catch(() => undefined);
});

describe('mail server down', () => {
  it('signup and call booking succeed; the messages wait in the outbox and go out once a server answers', async () => {
    const deadPort = await freePort();
    const down = await createHarness({ config: { smtpUrl: `smtp://127.0.0.1:${deadPort}` } });
    harnesses.push(down);
    const email = uniqueEmail('maildown');
    const signup = await down.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: application(email) });
    expect(signup.statusCode, signup.body).toBeLessThan(300);
    const call = await down.app.inject({ method: 'POST', url: '/api/schedule-call', payload: booking(email) });
    expect(call.statusCode, call.body).toBeLessThan(300);
    await down.app.deps.mail.flush();
    const waiting = await down.db
      .selectFrom('emailOutbox')
      .select(['id', 'status', 'attempts', 'lastError'])
      .where('toAddress', '=', email)
      .execute();
    expect(waiting.length).toBeGreaterThan(0);
    for (const m of waiting) {
      expect(m.status).toBe('pending');
      expect(m.attempts).toBeGreaterThan(0);
      expect(m.lastError).toBeTruthy();
    }

    // The mail server is back (here: another address); the retry is due.
    const smtp = await startSmtp();
    const up = await createHarness({ database: down.database, config: { smtpUrl: smtp.url } });
    harnesses.push(up);
    await up.db.updateTable('emailOutbox').set({ nextAttemptAt: new Date() }).where('toAddress', '=', email).execute();
    await up.app.deps.mail.flush();
    await smtp.waitFor(email);
    const sent = await up.db.selectFrom('emailOutbox').select(['status']).where('toAddress', '=', email).execute();
    expect(sent.map((m) => m.status)).toEqual(waiting.map(() => 'sent'));
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(waiting.length);
  });
});
