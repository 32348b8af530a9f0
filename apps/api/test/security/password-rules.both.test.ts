import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, MAX_QUEUED_HASHES } from '../../src/lib/password';
import { issueToken } from '../../src/services/accounts/tokens';
import { appLoggingTo, createDealer, createHarness, type Harness, setupPassword, signInDealer } from '../helpers';

/**
 * Issue 35, finding 11 (the points of this branch): a new password has at least 8 characters
 * (NIST SP 800-63B) and is not on a list of common passwords; a dealer's password change retires
 * their live reset and set-up links; a full hashing queue's 503 is logged at most once a second,
 * as a warning with the count (not an error with a stack trace on every request).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const GOOD = 'k7#Vq2!m';
const change = (cookie: string, currentPassword: string, newPassword: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/dealer/password',
    headers: { cookie },
    payload: { currentPassword, newPassword },
  });
const freshToken = (dealerId: string, purpose: 'reset' | 'setup' = 'reset') =>
  h.db.transaction().execute((trx) => issueToken(trx, dealerId, purpose));

describe('new passwords', () => {
  it('7 characters are refused with a 400 naming the field, on the emailed link and on a change; 8 are taken', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    const short = await change(cookie, d.password, 'x7#Vq2!');
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors).toEqual({ newPassword: 'Password must be at least 8 characters long' });
    const token = await freshToken(d.id);
    const viaLink = await setupPassword(h.app, { token, password: 'x7#Vq2!' });
    expect(viaLink.statusCode).toBe(400);
    expect(viaLink.json().fieldErrors).toEqual({ password: 'Password must be at least 8 characters long' });
    expect((await setupPassword(h.app, { token, password: GOOD })).statusCode).toBe(200);
  });

  it('a common password (any case) is refused with a 400 naming the field; the account keeps its password', async () => {
    const d = await createDealer(h.db);
    const cookie = await signInDealer(h.app, d.email);
    for (const common of ['password1', '12345678', 'iloveyou1', 'QWERTYUIOP', 'Baseball1']) {
      const res = await change(cookie, d.password, common);
      expect(res.statusCode, common).toBe(400);
      expect(Object.keys(res.json().fieldErrors ?? {}), common).toEqual(['newPassword']);
      expect(res.json().fieldErrors.newPassword).toMatch(/common/i);
      const token = await freshToken(d.id);
      const viaLink = await setupPassword(h.app, { token, password: common });
      expect(viaLink.statusCode, common).toBe(400);
      expect(Object.keys(viaLink.json().fieldErrors ?? {}), common).toEqual(['password']);
    }
    expect((await signInDealer(h.app, d.email, d.password)).length).toBeGreaterThan(0);
  });
});

describe('a dealer’s password change', () => {
  it('retires their live reset and set-up links', async () => {
    const d = await createDealer(h.db);
    const reset = await freshToken(d.id, 'reset');
    const cookie = await signInDealer(h.app, d.email);
    const changed = await change(cookie, d.password, GOOD);
    expect(changed.statusCode, changed.body).toBe(200);
    const used = await setupPassword(h.app, { token: reset, password: 'attacker-chosen-9' });
    // Answered as a used or superseded link is (410).
    expect(used.statusCode).toBe(410);
    // A set-up link issued before the change dies the same way.
    const setup = await freshToken(d.id, 'setup');
    const cookie2 = await signInDealer(h.app, d.email, GOOD);
    expect((await change(cookie2, GOOD, `${GOOD}-2`)).statusCode).toBe(200);
    expect((await setupPassword(h.app, { token: setup, password: 'attacker-chosen-9' })).statusCode).toBe(410);
    // The dealer's password is the one they chose.
    await expect(signInDealer(h.app, d.email, `${GOOD}-2`)).resolves.toMatch(/^dn\.sid=/);
  });
});

describe('a full hashing queue', () => {
  it('answers 503 and is logged at most once a second, as a warning with the count, never as an error', async () => {
    const lines: string[] = [];
    const app = await appLoggingTo(h.database, lines);
    try {
      const d = await createDealer(h.db);
      // The queue is full while these run.
      const filler = Array.from({ length: MAX_QUEUED_HASHES }, (_, i) => hashPassword(`filler-${i}`).catch(() => null));
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          app.inject({
            method: 'POST',
            url: '/api/dealer/login',
            remoteAddress: `10.150.${i}.1`,
            payload: { username: d.email, password: 'whatever-it-is' },
          }),
        ),
      );
      await Promise.all(filler);
      const busy = answers.filter((r) => r.statusCode === 503).length;
      expect(busy).toBeGreaterThan(5);
      // The last count is written within a second of the last refusal.
      await new Promise((r) => setTimeout(r, 2_200));
      const parsed = lines.map(
        (l) => JSON.parse(l) as { level: number; time: number; msg: string; refused?: number; err?: unknown },
      );
      const errors = parsed.filter((l) => l.level >= 50);
      expect(errors, JSON.stringify(errors).slice(0, 500)).toEqual([]);
      const warnings = parsed.filter((l) => l.level === 40 && typeof l.refused === 'number');
      // Fewer lines than refusals, at least a second apart, every refusal counted once, no stack.
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.length).toBeLessThan(busy);
      for (let i = 1; i < warnings.length; i++) {
        expect(warnings[i]!.time - warnings[i - 1]!.time).toBeGreaterThanOrEqual(990);
      }
      for (const w of warnings) expect(w.err).toBeUndefined();
      expect(warnings.reduce((n, w) => n + (w.refused ?? 0), 0)).toBe(busy);
    } finally {
      await app.close();
    }
  });
});
