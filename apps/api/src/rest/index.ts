import { stringifyAnswer } from '@dn/db/json-text';
import type { AnyProcedure } from '@trpc/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../context';
import { AppError } from '../lib/app-error';
import { createRequestContext } from '../plugins/auth';
import { answeredNotModified, tagAnswer } from '../plugins/etag';
import { handWrittenRoutes } from '../plugins/routes';
import { appRouter } from '../routers/index';
import type { Meta } from '../trpc/init';
import { versionTag } from '../trpc/versioned';
import type { RestRoute } from './route';

export type { Access, RestRoute } from './route';

/** A route for every procedure that declares a REST identity: it calls the procedure itself. */
const generated = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).flatMap(
  ([path, procedure]): RestRoute[] => {
    const meta = procedure._def.meta as Meta | undefined;
    if (!meta?.rest) return [];
    const call = { path, type: procedure._def.type as 'query' | 'mutation', signal: undefined, batchIndex: 0 };
    const handle: RestRoute['handle'] = async ({ deps, req, reply }) => {
      const ctx = await createRequestContext(deps, req, reply);
      // A versioned query (decision 0790): a client holding this version gets 304 without the query.
      const tag = meta.version ? versionTag(ctx, req.url, [procedure]) : null;
      if (tag && answeredNotModified(req, reply, tag)) return;
      const result = await procedure({ ...call, ctx, getRawInput: async () => rawInput(req) });
      if (tag) tagAnswer(reply, tag);
      return result;
    };
    const access = meta.access === 'dealer' || meta.access === 'admin' ? meta.access : 'public';
    const { method, summary } = meta.rest;
    const url = meta.rest.path.replace(/\{(\w+)\}/g, ':$1');
    const input = procedure._def.inputs[0] as z.ZodType | undefined;
    const role = access === 'admin' ? { role: meta.role ?? 'viewer' } : {};
    return [{ method, url, access, ...role, summary, input, handle }];
  },
);

/** Plus the few hand-written routes (plugins/routes.ts): what cannot be a procedure. */
export const restRoutes: RestRoute[] = [...generated, ...handWrittenRoutes];

/** The procedure's input: the query (GET) or the JSON body, with the path parameters merged in. */
function rawInput(req: FastifyRequest): unknown {
  const params = req.params as Record<string, string>;
  const body = req.method === 'GET' ? req.query : req.body;
  if (Object.keys(params).length === 0) return body ?? {};
  if (body === undefined || body === null || body === '') return { ...params };
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('INVALID_INPUT', 'The request body must be a JSON object');
  }
  return { ...body, ...params };
}

/** Serves the table. Access is the procedure's own middleware; errors go to plugins/errors.ts. */
export async function restPlugin(app: FastifyInstance, opts: { deps: Deps }) {
  // JSON.stringify, with JSON that PostgreSQL wrote written as it is (decision 0800).
  app.setReplySerializer((payload) => stringifyAnswer(payload));
  for (const route of restRoutes) {
    app.route({
      method: route.method,
      url: route.url,
      ...(route.preParsing ? { preParsing: route.preParsing } : {}),
      handler: async (req, reply) => {
        const result = await route.handle({ deps: opts.deps, req, reply });
        return reply.sent ? reply : (result ?? { ok: true });
      },
    });
  }
}
