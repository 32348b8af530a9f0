import { SERVER_BUSY } from '@dn/schema/messages';
import argon2 from 'argon2';
import { AppError } from './app-error';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. argon2 hashes on libuv's pool, off the event loop. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * One hash at a time per process: a burst of sign-ins then queues here instead of taking every
 * core from the requests that are cheap (dashboards polling). Each hash costs ~30 ms, and the
 * sign-in rate limits keep the queue short.
 */
let tail: Promise<unknown> = Promise.resolve();
let waiting = 0;
let hashes = 0;

/**
 * The most hashes that may wait (decision 0630): ~30 ms each, so a full queue is about a second.
 * Beyond it a request is refused at once with 503 and Retry-After instead of an ever-longer wait.
 */
export const MAX_QUEUED_HASHES = 32;
/** What a refused request is told to wait (Retry-After): the queue empties in about a second. */
export const BUSY_RETRY_AFTER_SEC = 2;

/** How many argon2 operations (hash or verify) this process has started: for tests and metrics. */
export const hashCount = () => hashes;

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_QUEUED_HASHES) {
    return Promise.reject(new AppError('UNAVAILABLE', SERVER_BUSY, { retryAfterSec: BUSY_RETRY_AFTER_SEC }));
  }
  waiting++;
  const counted = () => {
    hashes++;
    return work();
  };
  const run = tail.then(counted, counted).finally(() => {
    waiting--;
  });
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
    dummyHash ??= hashPassword('not-a-real-password-but-the-same-cost').catch((err: unknown) => {
      dummyHash = undefined;
      throw err;
    });
    const dummy = await dummyHash;
    await oneAtATime(() => argon2.verify(dummy, password)).catch(rethrowBusy);
    return false;
  }
  return oneAtATime(() => argon2.verify(hash, password)).catch(rethrowBusy);
}

/** A malformed stored hash verifies as false; a full queue stays a 503. */
function rethrowBusy(err: unknown): false {
  if (err instanceof AppError) throw err;
  return false;
}
