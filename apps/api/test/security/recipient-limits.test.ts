import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_ANSWER } from '../../src/services/accounts/passwords';
import { recipientKey } from '../../src/services/accounts/rate-limit';
import { createDealer, createHarness, type Harness, uniqueEmail } from '../helpers';
import { application, booking } from './support';

/**
 * Issue 12, decision 0701: every email an anonymous visitor can have sent (call confirmation,
 * reset or set-up link, "application received") counts against one budget per recipient
 * address, held in the rate_limits table, whatever IP asks. Call booking and signup over it
 * answer 429 and store nothing; a reset request over it answers exactly as a success and
 * queues nothing, so the answer tells nothing about accounts. Concurrent requests cannot pass
 * the budget together.
 */
const MAX = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ limits: { mailPerRecipient: { max: MAX, windowSec: 3600 } } });
});
afterAll(async () => {
  await h?.close();
});

const mailsTo = async (email: string) =>
  (await h.db.selectFrom('emailOutbox').select('kind').where('toAddress', '=', email).execute()).length;
const callsOf = async (email: string) =>
  (await h.db.selectFrom('callSchedules').select('id').where('email', '=', email).execute()).length;

/** A different future day for each booking (one slot per address and day is unique). */
const day = (i: number) => new Date(Date.now() + (7 + i) * 86_400_000).toISOString().slice(0, 10);
const book = (email: string, i: number, ip = `10.90.${i}.1`) =>
  h.app.inject({
    method: 'POST',
    url: '/api/schedule-call',
    remoteAddress: ip,
    payload: booking(email, { preferredDate: day(i) }),
  });
const askReset = (email: string, ip: string) =>
  h.app.inject({ method: 'POST', url: '/api/dealer/reset-password', remoteAddress: ip, payload: { email } });

describe('per-recipient email budget', () => {
  it('20 concurrent call bookings for one address from 20 addresses: exactly the budget is booked and emailed, the rest 429 with Retry-After and nothing stored', async () => {
    const email = uniqueEmail('victim');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(email, i)));
    const ok = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(ok).toHaveLength(MAX);
    expect(refused).toHaveLength(20 - MAX);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(3000);
    expect(await callsOf(email)).toBe(MAX);
    expect(await mailsTo(email)).toBe(MAX);
    // The address's case does not open a second budget.
    expect((await book(email.toUpperCase(), 30)).statusCode).toBe(429);
    // Another address is not affected.
    expect((await book(uniqueEmail('other'), 31)).statusCode).toBe(200);
  });

  it('the same over /trpc; a batch holding a booking is refused whole and books nothing', async () => {
    const email = uniqueEmail('trpc');
    const viaTrpc = (i: number) =>
      h.app.inject({
        method: 'POST',
        url: '/trpc/site.scheduleCall',
        remoteAddress: `10.91.${i}.1`,
        headers: { 'content-type': 'application/json' },
        payload: booking(email, { preferredDate: day(i) }),
      });
    const batch = await h.app.inject({
      method: 'POST',
      url: '/trpc/site.scheduleCall,site.scheduleCall?batch=1',
      remoteAddress: '10.91.99.1',
      headers: { 'content-type': 'application/json' },
      payload: { 0: booking(email, { preferredDate: day(40) }), 1: booking(email, { preferredDate: day(41) }) },
    });
    expect(batch.statusCode).toBe(400);
    expect(await callsOf(email)).toBe(0);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => viaTrpc(i)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(MAX);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(8 - MAX);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mailsTo(email)).toBe(MAX);
  });

  it('20 concurrent reset requests for a dealer: every answer is the success answer, at most the budget is emailed', async () => {
    const d = await createDealer(h.db);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => askReset(d.email, `10.92.${i}.1`)));
    for (const r of answers) {
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ ok: true, message: RESET_ANSWER });
      expect(r.headers['retry-after']).toBeUndefined();
    }
    expect(await mailsTo(d.email)).toBe(MAX);
  });

  it('over the budget, a known and an unknown address answer alike (status, body, headers that matter)', async () => {
    const d = await createDealer(h.db);
    const ghost = uniqueEmail('ghost');
    const answers: Record<string, unknown>[] = [];
    for (const email of [d.email, ghost]) {
      for (let i = 0; i < MAX; i++) await askReset(email, `10.93.${i}.1`);
      const over = await askReset(email, '10.93.50.1');
      answers.push({ status: over.statusCode, body: over.json(), retry: over.headers['retry-after'] ?? null });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ status: 200, body: { ok: true, message: RESET_ANSWER } });
    expect(await mailsTo(d.email)).toBe(MAX);
    expect(await mailsTo(ghost)).toBe(0);
    // The budget was counted for the unknown address too: it says nothing about who has an account.
    const row = await h.db
      .selectFrom('rateLimits')
      .select('count')
      .where('key', '=', recipientKey(ghost))
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(MAX + 1);
  });

  it('the budget is shared by every anonymous email: bookings spend it, so the reset is not sent, and signup is refused with nothing stored', async () => {
    const d = await createDealer(h.db);
    for (let i = 0; i < MAX; i++) expect((await book(d.email, 60 + i)).statusCode).toBe(200);
    const reset = await askReset(d.email, '10.94.0.1');
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(RESET_ANSWER);
    expect(await h.db.selectFrom('emailOutbox').select('kind').where('toAddress', '=', d.email).execute()).toEqual(
      Array(MAX).fill({ kind: 'call_confirmation' }),
    );

    const applicant = uniqueEmail('applicant');
    for (let i = 0; i < MAX; i++) expect((await book(applicant, 70 + i)).statusCode).toBe(200);
    const signup = await h.app.inject({
      method: 'POST',
      url: '/api/dealer-signup',
      remoteAddress: '10.94.0.2',
      payload: application(applicant),
    });
    expect(signup.statusCode).toBe(429);
    expect(Number(signup.headers['retry-after'])).toBeGreaterThan(0);
    expect(await h.db.selectFrom('dealers').select('id').where('email', '=', applicant).execute()).toEqual([]);
    expect(await mailsTo(applicant)).toBe(MAX);
  });

  it('signups for fresh addresses are not limited by the budget; the budget is one email each', async () => {
    const emails = Array.from({ length: 6 }, () => uniqueEmail('fresh'));
    const answers = await Promise.all(
      emails.map((email, i) =>
        h.app.inject({
          method: 'POST',
          url: '/api/dealer-signup',
          remoteAddress: `10.95.${i}.1`,
          payload: application(email),
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    for (const email of emails) expect(await mailsTo(email)).toBe(1);
  });
});
