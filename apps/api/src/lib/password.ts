import argon2 from 'argon2';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. argon2 hashes on libuv's pool, off the event loop. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * One hash at a time per process: a burst of sign-ins then queues here instead of taking every
 * core from the requests that are cheap (dashboards polling). Each hash costs ~30 ms, and the
 * sign-in rate limits keep the queue short.
 */
let tail: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = tail.then(work, work);
  tail = run.catch(() => undefined);
  return run;
}

export const hashPassword = (password: string) => oneAtATime(() => argon2.hash(password, OPTIONS));

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no hash (unknown user, no password yet) it still spends the
 * time of a verification, so the answer's timing does not tell whether the account exists.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password-but-the-same-cost');
    const dummy = await dummyHash;
    await oneAtATime(() => argon2.verify(dummy, password)).catch(() => false);
    return false;
  }
  try {
    return await oneAtATime(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}
