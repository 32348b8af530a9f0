import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { AppError, UNAVAILABLE_RETRY_AFTER_SEC } from '../lib/app-error';
import { trpcRetryAfter } from './errors';

/** The /trpc side of Retry-After (issue 12): the same waits as the REST error handler. */
const wrapped = (cause: unknown) => new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause });

describe('trpcRetryAfter', () => {
  it('gives a 429 its own wait, a busy 503 its wait and a lost database the default', () => {
    expect(
      trpcRetryAfter({ errors: [wrapped(new AppError('RATE_LIMITED', 'Too many', { retryAfterSec: 61 }))] }),
    ).toEqual({ headers: { 'retry-after': '61' } });
    expect(trpcRetryAfter({ errors: [wrapped(new AppError('UNAVAILABLE', 'Busy', { retryAfterSec: 2 }))] })).toEqual({
      headers: { 'retry-after': '2' },
    });
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(trpcRetryAfter({ errors: [wrapped(lost)] })).toEqual({
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SEC) },
    });
  });

  it('a batch gets the longest wait; answers without one get no header', () => {
    expect(
      trpcRetryAfter({
        errors: [
          wrapped(new AppError('RATE_LIMITED', 'a', { retryAfterSec: 30 })),
          wrapped(new AppError('INVALID_INPUT', 'b')),
          wrapped(new AppError('RATE_LIMITED', 'c', { retryAfterSec: 900 })),
        ],
      }),
    ).toEqual({ headers: { 'retry-after': '900' } });
    expect(trpcRetryAfter({ errors: [] })).toEqual({});
    expect(trpcRetryAfter({ errors: [wrapped(new AppError('UNAUTHORIZED', 'no'))] })).toEqual({});
    expect(trpcRetryAfter({ errors: [new TRPCError({ code: 'BAD_REQUEST', message: 'x' })] })).toEqual({});
  });
});
