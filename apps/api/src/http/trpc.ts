import { stringifyAnswer } from '@dn/db/json-text';
import {
  type AnyProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  type TRPCError,
  transformTRPCResponse,
} from '@trpc/server';
import { type FastifyTRPCPluginOptions, fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import { getHTTPStatusCode } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context, Deps } from '../context';
import { trpcRetryAfter } from '../plugins/errors';
import { tagAnswer } from '../plugins/etag';
import { type AppRouter, appRouter } from '../routers/index';
import { MAX_BATCH_SIZE, mustRunAlone, refuseUnbatchable } from '../trpc/batch-policy';
import { callProcedure, NOT_MODIFIED, versionGate } from './call';
import type { HttpRoute } from './route';
import { serveRoutes } from './serve';

type TrpcOptions = FastifyTRPCPluginOptions<AppRouter>['trpcOptions'];
const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure | undefined>;
const config = appRouter._def._config;
type Answer = Parameters<typeof transformTRPCResponse>[1];

/**
 * The router declares no transformer (init.ts), so its serializer hands a value back as it is, and
 * transformTRPCResponse would only copy every item of the answer. Probed once, not assumed: with a
 * transformer configured, each answer goes through it as tRPC's handler sends it.
 */
const probe = {};
const transform: (answer: Answer) => unknown =
  config.transformer.output.serialize(probe) === probe
    ? (answer) => answer
    : (answer) => transformTRPCResponse(config, answer);

interface TrpcPluginOptions {
  deps: Deps;
  /** A procedure failed in a way the client is not told about: the app logs it. */
  onInternalError(error: TRPCError, path?: string): void;
}

/**
 * `/trpc` (decision 0750), one route declared public: each procedure it calls checks its own
 * access (its builder's middleware, the same rule as every route's). A GET of queries, what the
 * web app polls with, is answered here by calling the procedures directly (http/call.ts, as the
 * REST table does), in tRPC's own wire format (its
 * error shapes, status and headers, built with its exported helpers). Everything else (mutations,
 * HEAD, streaming, a path or input tRPC itself must refuse) goes to tRPC's Fastify handler, which
 * would otherwise build a fetch Request and Response for every poll: measured at a third of the
 * process's time on the batched polls (bench/results.md).
 */
export async function trpcPlugin(app: FastifyInstance, opts: TrpcPluginOptions) {
  const trpcOptions: Omit<TrpcOptions, 'createContext'> = {
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    // 429 and 503 say when to come back, as on /api (plugins/errors.ts).
    responseMeta: trpcRetryAfter,
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') opts.onInternalError(error, path);
    },
  };
  // tRPC reads bodies itself (as its own plugin does); scoped to this plugin's routes.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.removeContentTypeParser('multipart/form-data');
  app.addContentTypeParser('multipart/form-data', {}, (_req, body, done) => done(null, body));

  const route: HttpRoute = {
    method: 'ALL',
    url: '/trpc/:path',
    access: 'public',
    summary: 'tRPC: every procedure, each checking its own access',
    async handle({ req, reply, context }) {
      const path = (req.params as { path: string }).path;
      const calls = req.method === 'GET' ? queryCalls(req, path) : null;
      if (calls && (await answerQueries(opts, req, reply, context, calls))) return reply;
      await fastifyRequestHandler({
        ...trpcOptions,
        createContext: ({ info }) => {
          refuseUnbatchable(info);
          return context();
        },
        req,
        res: reply,
        path,
      });
      return reply;
    },
  };
  await serveRoutes(app, { deps: opts.deps, routes: [route] });
}

interface QueryCall {
  path: string;
  procedure: AnyProcedure;
  input: unknown;
}

/** The calls of a GET this file answers, or null for tRPC to answer (and refuse) as it does. */
function queryCalls(req: FastifyRequest, pathParam: string): QueryCall[] | null {
  const query = req.query as Record<string, unknown>;
  // Streaming (tRPC reads either header) and connection parameters are tRPC's own.
  const streaming = req.headers['trpc-accept'] !== undefined || /application\/jsonl/.test(req.headers.accept ?? '');
  if (streaming || query.connectionParams !== undefined) return null;
  const batch = query.batch === '1';
  const paths = batch ? pathParam.split(',') : [pathParam];
  if (paths.length > MAX_BATCH_SIZE) return null;
  let inputs: unknown;
  if (typeof query.input === 'string') {
    try {
      inputs = JSON.parse(query.input);
    } catch {
      return null;
    }
  } else if (query.input !== undefined) return null;
  if (batch && inputs !== undefined && (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs))) {
    return null;
  }
  const calls: QueryCall[] = [];
  for (const [index, path] of paths.entries()) {
    const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
    if (procedure?._def.type !== 'query') return null;
    const input = batch ? (inputs as Record<string, unknown> | undefined)?.[index] : inputs;
    calls.push({ path, procedure, input });
  }
  if (calls.length > 1 && calls.some(mustRunAlone)) return null;
  return calls;
}

/** Runs the calls side by side and sends what tRPC's resolveResponse would. False: tRPC answers. */
async function answerQueries(
  opts: TrpcPluginOptions,
  req: FastifyRequest,
  reply: FastifyReply,
  context: () => Promise<Context>,
  calls: QueryCall[],
): Promise<boolean> {
  let ctx: Context;
  try {
    ctx = await context();
  } catch {
    return false;
  }
  reply.header('vary', 'trpc-accept, accept');
  // Every call versioned (decision 0790): a client holding this version gets 304 without the queries.
  const tag = versionGate(
    ctx,
    req,
    reply,
    calls.map((c) => c.procedure),
  );
  if (tag === NOT_MODIFIED) return true;
  const errors: TRPCError[] = [];
  const call = async ({ path, procedure, input }: QueryCall, batchIndex: number) => {
    try {
      const data = await callProcedure(procedure, path, ctx, async () => input, batchIndex);
      return { result: { data } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      errors.push(error);
      if (error.code === 'INTERNAL_SERVER_ERROR') opts.onInternalError(error, path);
      return { error: getTRPCErrorShape({ config, ctx, error, input, path, type: 'query' }) };
    }
  };
  // One call (most polls) is awaited alone; a batch runs side by side, as tRPC runs it.
  const items = calls.length === 1 ? [await call(calls[0]!, 0)] : await Promise.all(calls.map(call));
  const json = ((req.query as { batch?: string }).batch === '1' ? items : items[0]!) as Answer;
  if (errors.length === 0) {
    if (tag) tagAnswer(reply, tag);
  } else {
    const meta = trpcRetryAfter({ errors });
    if (meta.headers) void reply.headers(meta.headers);
  }
  void reply
    .code(getHTTPStatusCode(json as Parameters<typeof getHTTPStatusCode>[0]))
    .header('content-type', 'application/json')
    // A Buffer, so the content type stays tRPC's own (Fastify adds a charset to a string).
    .send(Buffer.from(stringifyAnswer(transform(json))));
  return true;
}
