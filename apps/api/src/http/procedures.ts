import type { AnyProcedure } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';
import { tagAnswer } from '../plugins/etag';
import { appRouter } from '../routers/index';
import type { Meta } from '../trpc/init';
import { callProcedure, NOT_MODIFIED, versionGate } from './call';
import type { Access, HttpRoute, RouteCall } from './route';

/**
 * A route for every procedure that declares a REST identity (`meta.rest`): its access is the
 * procedure's own metadata, and it calls the procedure.
 */
export const procedureRoutes: HttpRoute[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, AnyProcedure>,
).flatMap(([path, procedure]): HttpRoute[] => {
  const meta = procedure._def.meta as Meta | undefined;
  if (!meta?.rest) return [];
  const { method, summary } = meta.rest;
  const shape = {
    method,
    url: meta.rest.path.replace(/\{(\w+)\}/g, ':$1'),
    summary,
    operationId: path,
    input: procedure._def.inputs[0] as z.ZodType | undefined,
    async handle({ req, reply, context }: RouteCall<Access>) {
      const ctx = await context();
      // A versioned query (decision 0790): a client holding this version gets 304 without the query.
      const tag = meta.version ? versionGate(ctx, req, reply, [procedure]) : null;
      if (tag === NOT_MODIFIED) return;
      const result = await callProcedure(procedure, path, ctx, async () => rawInput(req));
      if (tag) tagAnswer(reply, tag);
      if (meta.rest?.created) reply.code(201);
      return result;
    },
  };
  const access = meta.access ?? 'public';
  const only = meta.sessionOnly ? { sessionOnly: true as const } : {};
  return [
    access === 'admin' ? { ...shape, ...only, access, role: meta.role ?? 'viewer' } : { ...shape, ...only, access },
  ];
});

/** The procedure's input: the query (GET) or the JSON body, with the path parameters merged in. */
export function rawInput(req: FastifyRequest): unknown {
  const params = req.params as Record<string, string>;
  const body = req.method === 'GET' ? req.query : req.body;
  if (Object.keys(params).length === 0) return body ?? {};
  if (body === undefined || body === null || body === '') return { ...params };
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('INVALID_INPUT', 'The request body must be a JSON object');
  }
  return { ...body, ...params };
}
