import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Context, createContextInner } from '../src/context';
import { AppError } from '../src/lib/app-error';
import { errorsPlugin } from '../src/plugins/errors';
import { publicProcedure, router } from '../src/trpc/init';

/** One mapping for both transports: the same failure answers the same status on REST and tRPC. */
const pgError = (code: string) => Object.assign(new Error(`database said ${code}`), { code });

const failures = {
  classTwentyTwo: () => pgError('22P02'),
  numericOverflow: () => pgError('22003'),
  unique: () => pgError('23505'),
  connection: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  appError: () => new AppError('RATE_LIMITED', 'Too many attempts', { retryAfterSec: 30 }),
  unknown: () => new TypeError('undefined is not a function'),
};
type Failure = keyof typeof failures;

const expected: Record<Failure, { status: number; message: RegExp }> = {
  classTwentyTwo: { status: 400, message: /cannot be stored/ },
  numericOverflow: { status: 400, message: /cannot be stored/ },
  unique: { status: 409, message: /already exists/ },
  connection: { status: 503, message: /temporarily unavailable/ },
  appError: { status: 429, message: /Too many attempts/ },
  unknown: { status: 500, message: /^Something went wrong/ },
};

const testRouter = router({
  fail: publicProcedure.input(z.object({ what: z.string() })).query(({ input }) => {
    throw failures[input.what as Failure]();
  }),
});

async function app() {
  const a = Fastify({ logger: false });
  await a.register(errorsPlugin);
  const ctx = createContextInner({} as never) as Context;
  await a.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: { router: testRouter, createContext: () => ctx },
  });
  const caller = testRouter.createCaller(ctx);
  // A REST route as the adapter builds them: the procedure's failure goes to the error handler.
  a.get('/api/fail', async (req) => caller.fail(req.query as { what: string }));
  return a;
}

describe('one error mapping for REST and tRPC', () => {
  for (const what of Object.keys(failures) as Failure[]) {
    it(`${what}: ${expected[what].status} on both transports, no stack`, async () => {
      const a = await app();
      const rest = await a.inject({ method: 'GET', url: `/api/fail?what=${what}` });
      const input = encodeURIComponent(JSON.stringify({ what }));
      const trpc = await a.inject({ method: 'GET', url: `/trpc/fail?input=${input}` });
      expect(rest.statusCode).toBe(expected[what].status);
      expect(trpc.statusCode).toBe(expected[what].status);
      expect(rest.json().message).toMatch(expected[what].message);
      expect(trpc.json().error.message).toMatch(expected[what].message);
      expect(`${rest.body}${trpc.body}`).not.toMatch(/database said|ECONNREFUSED|undefined is not|\bat .+\.ts:/);
      await a.close();
    });
  }

  it('a zod failure is a 400 with fieldErrors on both', async () => {
    const a = await app();
    const rest = await a.inject({ method: 'GET', url: '/api/fail' });
    const trpc = await a.inject({ method: 'GET', url: `/trpc/fail?input=${encodeURIComponent('{}')}` });
    expect(rest.statusCode).toBe(400);
    expect(trpc.statusCode).toBe(400);
    expect(rest.json().fieldErrors).toHaveProperty('what');
    expect(trpc.json().error.data.fieldErrors).toHaveProperty('what');
    await a.close();
  });

  it('a refusal with a wait carries Retry-After on REST and retryAfterSec on both', async () => {
    const a = await app();
    const rest = await a.inject({ method: 'GET', url: '/api/fail?what=appError' });
    expect(rest.headers['retry-after']).toBe('30');
    expect(rest.json().retryAfterSec).toBe(30);
    const trpc = await a.inject({
      method: 'GET',
      url: `/trpc/fail?input=${encodeURIComponent('{"what":"appError"}')}`,
    });
    expect(trpc.json().error.data.retryAfterSec).toBe(30);
    await a.close();
  });
});
