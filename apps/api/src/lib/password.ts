import argon2 from 'argon2';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. argon2 hashes on libuv's pool, off the event loop. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no hash (unknown user, no password yet) it still spends the
 * time of a verification, so the answer's timing does not tell whether the account exists.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password-but-the-same-cost');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
