import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashCount, MAX_QUEUED_HASHES, MAX_QUEUED_PER_ACCOUNT, verifyPassword } from '../../src/lib/password';
import { DEFAULT_LIMITS } from '../../src/services/accounts/rate-limit';
import { createDealer, createHarness, GENEROUS_LIMITS, type Harness, signInAdmin, signInDealer } from '../helpers';

/**
 * Issue 35, finding 2: the current-password check of a password change was an unthrottled
 * oracle: a stolen session (a viewer's is enough) could guess the current password at the hash
 * rate and fill the shared hash queue. It now spends the account's sign-in budget, counted before
 * any hash as sign-in counts (decision 0630): past the budget 429 with Retry-After, and one
 * account holds at most a small share of the hash queue.
 */
const BUDGET = DEFAULT_LIMITS.loginPerAccount.max;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ limits: { ...GENEROUS_LIMITS, loginPerAccount: DEFAULT_LIMITS.loginPerAccount } });
});
afterAll(async () => {
  await h?.close();
});

const NEW = 'a-new-long-password-9';
const change = (url: string, cookie: string, currentPassword: string, ip = '10.130.0.1') =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { cookie },
    payload: { currentPassword, newPassword: NEW },
  });

describe('the current-password check spends the sign-in budget', () => {
  it('dealer: 20 parallel wrong guesses over REST cost at most the budget in hashes; the rest and then the right password answer 429 with Retry-After; sign-in is locked too', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const before = hashCount();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => change('/api/dealer/password', cookie, `wrong-guess-${i}`, `10.130.${i}.1`)),
    );
    expect(hashCount() - before).toBeLessThanOrEqual(BUDGET);
    expect(answers.filter((r) => r.statusCode === 400).length).toBeLessThanOrEqual(BUDGET);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(20 - BUDGET);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    const right = await change('/api/dealer/password', cookie, d.password);
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // The password did not change, and the same account budget guards the sign-in.
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      remoteAddress: '10.131.0.1',
      payload: { username: d.email, password: d.password },
    });
    expect(login.statusCode).toBe(429);
  });

  it('admin: 20 parallel wrong guesses as single tRPC calls, then the right password: 429 with Retry-After, at most the budget in hashes', async () => {
    const username = `guessed${Date.now().toString(36)}`;
    const cookie = await signInAdmin(h.app, username);
    const before = hashCount();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.app.inject({
          method: 'POST',
          url: '/trpc/team.changePassword',
          remoteAddress: `10.132.${i}.1`,
          headers: { cookie, 'content-type': 'application/json' },
          payload: { currentPassword: `wrong-guess-${i}`, newPassword: NEW },
        }),
      ),
    );
    expect(hashCount() - before).toBeLessThanOrEqual(BUDGET);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(20 - BUDGET);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    const right = await change('/api/admin/me/password', cookie, 'admin-password-1');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a tRPC batch of guesses is refused whole: no hash, no budget spent, the right password then works', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const before = hashCount();
    const calls = Array.from({ length: 6 }, () => 'account.changePassword').join(',');
    const batch = await h.app.inject({
      method: 'POST',
      url: `/trpc/${calls}?batch=1`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [i, { currentPassword: `wrong-${i}`, newPassword: NEW }]),
      ),
    });
    expect(batch.statusCode).toBe(400);
    expect(hashCount() - before).toBe(0);
    const right = await change('/api/dealer/password', cookie, d.password);
    expect(right.statusCode, right.body).toBe(200);
  });

  it('a right current password gives back its own hit: the owner can change twice in a row and still sign in', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    for (let i = 0; i < BUDGET + 2; i++) {
      const from = i === 0 ? d.password : `${NEW}-${i - 1}`;
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/dealer/password',
        headers: { cookie },
        payload: { currentPassword: from, newPassword: `${NEW}-${i}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

describe('one account holds a small share of the hash queue', () => {
  it('verifications for one account past its share are refused at once with 503 and a retry time; another account still queues', async () => {
    const SHARE = MAX_QUEUED_PER_ACCOUNT;
    expect(SHARE).toBeLessThanOrEqual(MAX_QUEUED_HASHES / 4);
    expect(SHARE).toBeGreaterThanOrEqual(DEFAULT_LIMITS.loginPerAccount.max);
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpg';
    const burst = Array.from({ length: SHARE + 6 }, (_, i) =>
      verifyPassword(hash, `guess-${i}`, 'dealer:victim@example.com').then(
        () => 'ran' as const,
        (err: { code?: string; extra?: { retryAfterSec?: number } }) => err,
      ),
    );
    const other = verifyPassword(hash, 'someone-else', 'dealer:other@example.com');
    const results = await Promise.all(burst);
    expect(results.filter((r) => r === 'ran')).toHaveLength(SHARE);
    const refused = results.filter((r) => r !== 'ran');
    expect(refused).toHaveLength(6);
    for (const r of refused) {
      expect(r).toMatchObject({ code: 'UNAVAILABLE' });
      expect((r as { extra: { retryAfterSec: number } }).extra.retryAfterSec).toBeGreaterThan(0);
    }
    await expect(other).resolves.toBe(false);
    // The share is given back as each verification ends.
    await expect(verifyPassword(hash, 'later', 'dealer:victim@example.com')).resolves.toBe(false);
  });
});
