import { COMMON_PASSWORD, isCommonPassword } from '@dn/schema/common-passwords';
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

/**
 * The most of the queue one account may hold (issue 35, finding 2): a quarter. Its sign-ins and
 * password checks beyond this are refused like a full queue, so one account (its shared budget,
 * its remembered devices' budgets and a stolen session's password checks together) cannot make
 * every other sign-in answer 503. Above the per-account sign-in budget (5), so a single burst is
 * still decided by the budget (decision 0630's tests), not by this.
 */
export const MAX_QUEUED_PER_ACCOUNT = MAX_QUEUED_HASHES / 4;
const perAccount = new Map<string, number>();

/** How many argon2 operations (hash or verify) this process has started: for tests and metrics. */
export const hashCount = () => hashes;

/**
 * Refusals are logged at most once a second, as one warning with their count (issue 35, finding
 * 11): a flood of them is a load, not a fault, and one line each with a stack trace buried the log.
 * The app sets where the line goes (`onQueueFull`); the first refusal after a quiet second is told
 * at once, later ones in the next line.
 */
let warnQueueFull: ((refused: number) => void) | undefined;
let refusedSinceLine = 0;
let lineTimer: NodeJS.Timeout | undefined;
export function onQueueFull(warn: (refused: number) => void): void {
  warnQueueFull = warn;
}
function tellRefusals() {
  lineTimer = undefined;
  if (refusedSinceLine === 0) return;
  warnQueueFull?.(refusedSinceLine);
  refusedSinceLine = 0;
  lineTimer = setTimeout(tellRefusals, 1_000);
  lineTimer.unref();
}

function busy(): Promise<never> {
  refusedSinceLine++;
  if (!lineTimer) tellRefusals();
  return Promise.reject(new AppError('UNAVAILABLE', SERVER_BUSY, { retryAfterSec: BUSY_RETRY_AFTER_SEC }));
}

/** Whether an error is this queue's refusal (logged here, once a second, not by the error handler). */
export const isQueueFull = (err: AppError) => err.code === 'UNAVAILABLE' && err.message === SERVER_BUSY;

function oneAtATime<T>(work: () => Promise<T>, account?: string): Promise<T> {
  if (waiting >= MAX_QUEUED_HASHES) return busy();
  const held = account ? (perAccount.get(account) ?? 0) : 0;
  if (account && held >= MAX_QUEUED_PER_ACCOUNT) return busy();
  waiting++;
  if (account) perAccount.set(account, held + 1);
  const counted = () => {
    hashes++;
    return work();
  };
  const run = tail.then(counted, counted).finally(() => {
    waiting--;
    if (!account) return;
    const left = (perAccount.get(account) ?? 1) - 1;
    if (left > 0) perAccount.set(account, left);
    else perAccount.delete(account);
  });
  tail = run.catch(() => undefined);
  return run;
}

export const hashPassword = (password: string) => oneAtATime(() => argon2.hash(password, OPTIONS));

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no hash (unknown user, no password yet) it still spends the
 * time of a verification, so the answer's timing does not tell whether the account exists.
 * `account` (`dealer:<email>`, `admin:<name>`) holds at most its share of the queue.
 */
export async function verifyPassword(
  hash: string | null | undefined,
  password: string,
  account?: string,
): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password-but-the-same-cost').catch((err: unknown) => {
      dummyHash = undefined;
      throw err;
    });
    const dummy = await dummyHash;
    await oneAtATime(() => argon2.verify(dummy, password), account).catch(rethrowBusy);
    return false;
  }
  return oneAtATime(() => argon2.verify(hash, password), account).catch(rethrowBusy);
}

/**
 * A new password on the list of common ones is refused (NIST SP 800-63B; the list and its
 * message are `@dn/schema/common-passwords`, decision 0881), with a 400 naming the field.
 */
export function assertNotCommonPassword(password: string, field: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('INVALID_INPUT', COMMON_PASSWORD, { fieldErrors: { [field]: COMMON_PASSWORD } });
  }
}

/** A malformed stored hash verifies as false; a full queue stays a 503. */
function rethrowBusy(err: unknown): false {
  if (err instanceof AppError) throw err;
  return false;
}
