import { TOKEN_SHAPE } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { randomToken } from './tokens';

describe('randomToken', () => {
  it('gives 32 URL-safe random bytes, never the same twice across many pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const t = randomToken();
      expect(t).toMatch(TOKEN_SHAPE);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
      seen.add(t);
    }
    expect(seen.size).toBe(2_000);
  });

  it('does not repeat bytes between consecutive tokens (each slice of the pool is used once)', () => {
    const a = Buffer.from(randomToken(), 'base64url');
    const b = Buffer.from(randomToken(), 'base64url');
    expect(a.equals(b)).toBe(false);
    expect(a.subarray(16).equals(b.subarray(0, 16))).toBe(false);
  });
});
