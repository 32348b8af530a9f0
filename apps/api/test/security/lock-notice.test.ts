import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertAdmin } from '../../src/services/accounts/admins';
import { lockNoticeKey, sharedLoginKey } from '../../src/services/accounts/lock-notice';
import { DEFAULT_LIMITS } from '../../src/services/accounts/rate-limit';
import { createDealer, createMailHarness, GENEROUS_LIMITS, type MailHarness, uniqueEmail } from '../helpers';

/**
 * Issue 12, decision 0700: when failed sign-ins lock an account (its shared budget is spent), the
 * owner gets exactly ONE email through the outbox: a dealer with a reset link (the reset lifts the
 * lock), an admin with an email the ways back. One per lock window, however many failures arrive
 * at once, so the notice cannot be turned into an email bomb. Real SMTP receiver.
 */
let h: MailHarness;
const budget = DEFAULT_LIMITS.loginPerAccount.max;

beforeAll(async () => {
  h = await createMailHarness({
    limits: { ...GENEROUS_LIMITS, loginPerAccount: DEFAULT_LIMITS.loginPerAccount },
  });
});
afterAll(async () => {
  await h?.close();
});

const LOCKED = /were paused/;
const received = (to: string) =>
  h.smtp.received.filter((m) => m.to.includes(to.toLowerCase()) && LOCKED.test(m.subject));
const queued = async (to: string) =>
  h.db
    .selectFrom('emailOutbox')
    .select(['kind', 'status'])
    .where('toAddress', '=', to)
    .where('kind', '=', 'account_locked')
    .execute();

/**
 * Waits for the outbox to have delivered everything it holds (then nothing more can arrive): each
 * flush resolves after the sender's running pass and one more, so this counts passes, not time
 * (it was 10 s of polling, issue 46).
 */
async function drained() {
  for (let i = 0; i < 10; i++) {
    const waiting = await h.db
      .selectFrom('emailOutbox')
      .select('id')
      .where('status', 'in', ['pending', 'sending'])
      .execute();
    if (waiting.length === 0) return;
    await h.app.deps.mail.flush();
  }
  throw new Error('the outbox did not drain');
}

const dealerLogin = (username: string, password: string, ip: string) =>
  h.app.inject({ method: 'POST', url: '/api/dealer/login', remoteAddress: ip, payload: { username, password } });
const adminLogin = (username: string, password: string, ip: string) =>
  h.app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress: ip, payload: { username, password } });

/** Lets the account's lock window (and the notice that goes with it) run out, as time would. */
async function windowPasses(scope: 'admin' | 'dealer', account: string) {
  await h.db
    .updateTable('rateLimits')
    .set({ resetAt: new Date(Date.now() - 1000) })
    .where('key', 'in', [sharedLoginKey(scope, account), lockNoticeKey(scope, account)])
    .execute();
}

describe('a dealer locked out by failed sign-ins', () => {
  it('40 concurrent failures: exactly one email, with a reset link that lifts the lock; more failures send nothing', async () => {
    const d = await createDealer(h.db);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => dealerLogin(d.email, `wrong-password-${i}`, `10.110.${i}.1`)),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(budget);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(40 - budget);
    await drained();
    expect(await queued(d.email)).toEqual([{ kind: 'account_locked', status: 'sent' }]);
    const mails = received(d.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.text).toMatch(/paused until \d\d:\d\d UTC/);
    const link = /https:\/\/dealers\.test\/login\?token=([A-Za-z0-9_-]{43})/.exec(mail.text);
    expect(link).not.toBeNull();

    // Twenty more failures inside the same window: no second email.
    await Promise.all(Array.from({ length: 20 }, (_, i) => dealerLogin(d.email, 'wrong-again', `10.111.${i}.1`)));
    await drained();
    expect(received(d.email)).toHaveLength(1);
    expect(await queued(d.email)).toHaveLength(1);

    // The owner holds the mailbox: the link sets a new password and the lock is gone.
    expect((await dealerLogin(d.email, d.password, '10.112.0.1')).statusCode).toBe(429);
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/setup-password',
      remoteAddress: '10.112.0.1',
      payload: { token: link![1], password: 'after-lock-pass-1', confirmPassword: 'after-lock-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await dealerLogin(d.email, 'after-lock-pass-1', '10.112.0.2')).statusCode).toBe(200);
  });

  it('a new lock in a later window is told again (one email per lock window, not one ever)', async () => {
    const d = await createDealer(h.db);
    for (let i = 0; i < budget; i++)
      expect((await dealerLogin(d.email, 'wrong', `10.113.${i}.1`)).statusCode).toBe(401);
    await drained();
    expect(received(d.email)).toHaveLength(1);
    await windowPasses('dealer', d.email);
    // The window is over: the owner could sign in; the attacker starts again.
    for (let i = 0; i < budget; i++)
      expect((await dealerLogin(d.email, 'wrong', `10.114.${i}.1`)).statusCode).toBe(401);
    await drained();
    expect(received(d.email)).toHaveLength(2);
  });

  it('fewer failures than the budget send nothing; an unknown address or a dealer who cannot sign in gets nothing', async () => {
    const d = await createDealer(h.db);
    for (let i = 0; i < budget - 1; i++) await dealerLogin(d.email, 'wrong', `10.115.${i}.1`);
    const ghost = uniqueEmail('ghost');
    const pending = await createDealer(h.db, { status: 'pending', password: null });
    for (const who of [ghost, pending.email]) {
      await Promise.all(Array.from({ length: budget + 3 }, (_, i) => dealerLogin(who, 'wrong', `10.116.${i}.1`)));
    }
    await drained();
    for (const who of [d.email, ghost, pending.email]) {
      expect(await queued(who)).toEqual([]);
      expect(received(who)).toEqual([]);
    }
    // The lock of the unknown address is in the audit trail, once.
    const notes = await h.db
      .selectFrom('auditLogs')
      .select(['eventType', 'success'])
      .where('eventType', '=', 'auth.lock_notice')
      .where('message', 'like', `%${ghost}%`)
      .execute();
    expect(notes).toEqual([{ eventType: 'auth.lock_notice', success: false }]);
  });

  it('a tRPC batch of sign-ins is refused whole: it locks nothing and sends nothing', async () => {
    const d = await createDealer(h.db);
    const body = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [i, { username: d.email, password: `w${i}` }]),
    );
    const res = await h.app.inject({
      method: 'POST',
      url: `/trpc/${Array(10).fill('auth.dealerLogin').join(',')}?batch=1`,
      remoteAddress: '10.117.0.1',
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    await drained();
    expect(await queued(d.email)).toEqual([]);
    expect((await dealerLogin(d.email, d.password, '10.117.0.2')).statusCode).toBe(200);
  });
});

describe('an admin locked out by failed sign-ins', () => {
  it('40 concurrent failures for an admin with an email: one email, no link, the ways back', async () => {
    const username = `lockadmin-${Date.now().toString(36)}`;
    const email = uniqueEmail('admin');
    await upsertAdmin(h.db, username, 'admin-lock-pass-1');
    await h.db.updateTable('admins').set({ email }).where('username', '=', username).execute();
    await Promise.all(Array.from({ length: 40 }, (_, i) => adminLogin(username, `wrong-${i}`, `10.120.${i}.1`)));
    await drained();
    const mails = received(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`"${username}"`);
    expect(mails[0]!.text).toContain('Your Account');
    expect(mails[0]!.text).not.toMatch(/token=/);
    expect(await queued(email)).toEqual([{ kind: 'account_locked', status: 'sent' }]);
  });

  it('an admin without an email: no email, the lock noted in the audit trail once', async () => {
    const username = `noemail-${Date.now().toString(36)}`;
    await upsertAdmin(h.db, username, 'admin-lock-pass-2');
    const before = h.smtp.received.length;
    await Promise.all(Array.from({ length: 20 }, (_, i) => adminLogin(username, `wrong-${i}`, `10.121.${i}.1`)));
    await drained();
    expect(h.smtp.received.length).toBe(before);
    const notes = await h.db
      .selectFrom('auditLogs')
      .select(['success'])
      .where('eventType', '=', 'auth.lock_notice')
      .where('message', 'like', `%${username}%`)
      .execute();
    expect(notes).toEqual([{ success: false }]);
  });
});
