import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

describe('passwords', () => {
  it('hashes with argon2id at OWASP parameters and verifies', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
    expect(await verifyPassword(null, 'x')).toBe(false);
  });

  it('runs concurrent hashes one at a time, each still answering', async () => {
    const hashes = await Promise.all(Array.from({ length: 4 }, (_, i) => hashPassword(`pw-${i}`)));
    const checks = await Promise.all(hashes.map((h, i) => verifyPassword(h, `pw-${i}`)));
    expect(checks).toEqual([true, true, true, true]);
  });
});
