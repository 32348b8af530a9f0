import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openReferralRef, REFERRAL_REF_TTL_SEC, sealReferralRef } from './referral-ref';

const SECRET = 'a-session-secret-that-is-long-enough-0123456789';

describe('the referral picker reference', () => {
  it('opens to the dealer id it sealed, and is new every time', () => {
    const id = randomUUID();
    const a = sealReferralRef(SECRET, id);
    const b = sealReferralRef(SECRET, id);
    expect(a).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(id.replace(/-/g, '').slice(0, 8));
    expect(openReferralRef(SECRET, a)).toBe(id);
    expect(openReferralRef(SECRET, b)).toBe(id);
  });

  it('refuses an altered, foreign, truncated or expired reference', () => {
    const id = randomUUID();
    const ref = sealReferralRef(SECRET, id);
    for (let i = 0; i < ref.length; i += 7) {
      const flipped = `${ref.slice(0, i)}${ref[i] === 'A' ? 'B' : 'A'}${ref.slice(i + 1)}`;
      expect(openReferralRef(SECRET, flipped), `position ${i}`).toBeNull();
    }
    expect(openReferralRef(`${SECRET}x`, ref)).toBeNull();
    expect(openReferralRef(SECRET, ref.slice(0, 60))).toBeNull();
    expect(openReferralRef(SECRET, id)).toBeNull();
    const now = Date.now();
    const old = sealReferralRef(SECRET, id, now - REFERRAL_REF_TTL_SEC * 1000 - 1000);
    expect(openReferralRef(SECRET, old, now)).toBeNull();
    expect(openReferralRef(SECRET, sealReferralRef(SECRET, id, now - 1000), now)).toBe(id);
  });
});
