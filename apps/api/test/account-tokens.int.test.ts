import { EXPIRED_LINK, INVALID_LINK } from '@dn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error';
import { verifyPassword } from '../src/lib/password';
import { sha256 } from '../src/lib/tokens';
import { consumeToken, issueToken } from '../src/services/accounts/tokens';
import { cookieOf, createDealer, createHarness, type Harness, setupPassword, signInDealer } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const issue = (dealerId: string, purpose: 'setup' | 'reset' = 'setup') =>
  h.db.transaction().execute((trx) => issueToken(trx, dealerId, purpose));
const consume = (token: string, purpose?: 'setup' | 'reset') =>
  h.db.transaction().execute((trx) => consumeToken(trx, token, purpose));
const setup = (token: string, password: string) => setupPassword(h.app, { token, password });

/** Backdates a link's expiry by a second. */
const expire = (token: string) =>
  h.db
    .updateTable('magicLinkTokens')
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where('token', '=', sha256(token))
    .execute();
async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('token service', () => {
  it('stores only the SHA-256 of a 32-byte token, with purpose and expiry', async () => {
    const d = await createDealer(h.db, { password: null });
    const before = Date.now();
    const token = await issue(d.id, 'setup');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await h.db.selectFrom('magicLinkTokens').selectAll().where('dealerId', '=', d.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token).toBe(sha256(token));
    expect(rows[0]!.token).not.toContain(token);
    expect(rows[0]!.purpose).toBe('setup');
    const ttl = new Date(rows[0]!.expiresAt).getTime() - before;
    expect(ttl).toBeGreaterThan(71.9 * 3_600_000);
    expect(ttl).toBeLessThan(72.1 * 3_600_000);
    const reset = await issue(d.id, 'reset');
    const r = await h.db
      .selectFrom('magicLinkTokens')
      .select('expiresAt')
      .where('token', '=', sha256(reset))
      .executeTakeFirstOrThrow();
    expect(new Date(r.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(new Date(r.expiresAt).getTime() - Date.now()).toBeGreaterThan(3_500_000);
  });

  it('is single use under 20 concurrent attempts: exactly one succeeds', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => consume(token)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    expect((ok[0] as PromiseFulfilledResult<{ dealerId: string }>).value.dealerId).toBe(d.id);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'TOKEN_EXPIRED', message: EXPIRED_LINK });
    }
  });

  it('tells malformed and unknown tokens from expired and used ones', async () => {
    expect(await refusal(consume('not a token'))).toEqual({ code: 'INVALID_INPUT', message: INVALID_LINK });
    expect(await refusal(consume('A'.repeat(43)))).toEqual({ code: 'INVALID_INPUT', message: INVALID_LINK });
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id);
    await expire(token);
    expect(await refusal(consume(token))).toEqual({ code: 'TOKEN_EXPIRED', message: EXPIRED_LINK });
  });

  it('checks the purpose when asked', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id, 'reset');
    expect(await refusal(consume(token, 'setup'))).toEqual({ code: 'INVALID_INPUT', message: INVALID_LINK });
    expect(await consume(token, 'reset')).toEqual({ dealerId: d.id, purpose: 'reset' });
  });

  it('lets a new token supersede older unused ones of the same purpose only', async () => {
    const d = await createDealer(h.db, { password: null });
    const reset = await issue(d.id, 'reset');
    const first = await issue(d.id, 'setup');
    const second = await issue(d.id, 'setup');
    expect(await refusal(consume(first))).toEqual({ code: 'TOKEN_EXPIRED', message: EXPIRED_LINK });
    expect((await consume(second)).dealerId).toBe(d.id);
    expect((await consume(reset)).purpose).toBe('reset');
  });
});

describe('POST /api/dealer/setup-password', () => {
  it('sets an argon2id hash, grants access, signs the dealer in and uses the link up', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id);
    const res = await setup(token, 'my-new-password');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: d.email, role: 'dealer' });
    expect(res.body).not.toMatch(/argon2|my-new-password/);
    const row = await h.db
      .selectFrom('dealers')
      .select(['password', 'accessGranted'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(row.password, 'my-new-password')).toBe(true);
    expect(row.accessGranted).toBe(true);
    const cookie = cookieOf(res);
    expect((await h.app.inject({ url: '/api/dealer/info', headers: { cookie } })).statusCode).toBe(200);
    // The same link again: expired or used.
    const again = await setup(token, 'another-password');
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(EXPIRED_LINK);
    // Sign-in works with the new password.
    await signInDealer(h.app, d.email, 'my-new-password');
  });

  it("ends the dealer's other sessions and queues a password-changed notice", async () => {
    const d = await createDealer(h.db);
    const elsewhere = await signInDealer(h.app, d.email, d.password);
    const token = await issue(d.id, 'reset');
    const res = await setup(token, 'changed-password');
    expect(res.statusCode).toBe(200);
    expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie: elsewhere } })).statusCode).toBe(401);
    expect((await h.app.inject({ url: '/api/auth/user', headers: { cookie: cookieOf(res) } })).statusCode).toBe(200);
    const mail = await h.db
      .selectFrom('emailOutbox')
      .select(['kind', 'subject'])
      .where('dealerId', '=', d.id)
      .execute();
    expect(mail).toContainEqual({ kind: 'password_changed', subject: 'Your dealer account password was changed' });
  });

  it('retires every other link of the dealer once a password is set', async () => {
    const d = await createDealer(h.db, { password: null });
    const setupToken = await issue(d.id, 'setup');
    const resetToken = await issue(d.id, 'reset');
    expect((await setup(resetToken, 'password-one')).statusCode).toBe(200);
    expect((await setup(setupToken, 'password-two')).statusCode).toBe(410);
  });

  it('under concurrent uses of one link, exactly one sets the password', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id);
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => setup(token, `password-${i}-xyz`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410, 410, 410]);
  });

  it('answers an expired link with 410 and a malformed one with 400, storing nothing', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id);
    await expire(token);
    const expired = await setup(token, 'good-password');
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(EXPIRED_LINK);
    const malformed = await setup('abc', 'good-password');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(INVALID_LINK);
    const unknown = await setup('B'.repeat(43), 'good-password');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(INVALID_LINK);
    const row = await h.db.selectFrom('dealers').select('password').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.password).toBeNull();
  });

  it('refuses bad input in the schema words and leaves the link usable', async () => {
    const d = await createDealer(h.db, { password: null });
    const token = await issue(d.id);
    const short = await setup(token, '12345');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Password must be at least 8 characters long');
    const long = await setup(token, 'x'.repeat(129));
    expect(long.statusCode).toBe(400);
    const missing = await setupPassword(h.app, { password: 'abcdef-gh' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Token is required');
    expect((await setup(token, 'set-pass-8')).statusCode).toBe(200);
  });

  it('refuses a dealer who may not sign in and keeps the link for when the account reopens', async () => {
    const d = await createDealer(h.db, { password: null, status: 'suspended' });
    const token = await issue(d.id);
    const res = await setup(token, 'good-password');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/suspended/);
    await h.db.updateTable('dealers').set({ status: 'approved' }).where('id', '=', d.id).execute();
    expect((await setup(token, 'good-password')).statusCode).toBe(200);
  });
});
