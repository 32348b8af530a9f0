import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { createQueryClient, shouldRetryQuery } from './query-client';

const rest = (status: number) => new ApiError(status, null, 'x');
/** A TRPCClientError as the client sees it: the status in `data`. */
const trpc = (httpStatus: number) => Object.assign(new Error('x'), { data: { httpStatus } });

describe('shouldRetryQuery (SPEC section 8)', () => {
  it('never retries a 401 or a 403, from REST or tRPC', () => {
    for (const e of [rest(401), rest(403), trpc(401), trpc(403)]) expect(shouldRetryQuery(0, e)).toBe(false);
  });

  it('retries any other failure twice, then gives up', () => {
    for (const e of [
      rest(400),
      rest(404),
      rest(409),
      rest(429),
      rest(500),
      trpc(404),
      trpc(503),
      new TypeError('fetch'),
    ]) {
      expect([0, 1, 2, 3].map((n) => shouldRetryQuery(n, e))).toEqual([true, true, false, false]);
    }
  });
});

describe('the query client', () => {
  /** How many times a query whose every attempt fails with `error` is attempted. */
  async function attempts(error: unknown) {
    const client = createQueryClient();
    let n = 0;
    await client
      .fetchQuery({
        queryKey: ['fails', n, Math.random()],
        queryFn: () => {
          n++;
          throw error;
        },
        retryDelay: 0,
      })
      .catch(() => undefined);
    client.clear();
    return n;
  }

  it('attempts a data fetch 3 times at most, once on 401/403', async () => {
    expect(await attempts(rest(500))).toBe(3);
    expect(await attempts(rest(404))).toBe(3);
    expect(await attempts(trpc(429))).toBe(3);
    expect(await attempts(rest(401))).toBe(1);
    expect(await attempts(trpc(403))).toBe(1);
  });

  it('never retries a mutation', async () => {
    const client = createQueryClient();
    let n = 0;
    const mutation = client.getMutationCache().build(client, {
      mutationFn: async () => {
        n++;
        throw rest(500);
      },
      retryDelay: 0,
    });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    expect(n).toBe(1);
  });
});
