import { fieldErrorsOf } from '@dn/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';
import type { Context } from '../trpc/context';

export type Access = 'public' | 'dealer' | 'admin';

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path, `:id` for parameters. */
  url: string;
  access: Access;
  summary: string;
  /** Parsed from the query (GET) or the JSON body, with the path parameters merged in. */
  input?: z.ZodType;
  /** Answers with the handler's value as JSON unless the handler sends the reply itself. */
  handler(ctx: Context, input: unknown, io: { req: FastifyRequest; reply: FastifyReply }): Promise<unknown>;
  /** For the OpenAPI document: what a success looks like. */
  responds?: string;
}

/** A typed route: the handler sees the schema's output. */
export function defineRoute<S extends z.ZodType | undefined = undefined>(
  r: Omit<RestRoute, 'input' | 'handler'> & {
    input?: S;
    handler(
      ctx: Context,
      input: S extends z.ZodType ? z.output<S> : undefined,
      io: { req: FastifyRequest; reply: FastifyReply },
    ): Promise<unknown>;
  },
): RestRoute {
  return r as RestRoute;
}

/** Parses with the shared schema; a failure is a 400 in the schema's words. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const fieldErrors = fieldErrorsOf(result.error);
    throw new AppError('INVALID_INPUT', result.error.issues[0]?.message ?? 'Invalid input', { fieldErrors });
  }
  return result.data;
}

export function rawInput(req: FastifyRequest): unknown {
  const params = (req.params ?? {}) as Record<string, string>;
  if (req.method === 'GET') return { ...(req.query as object), ...params };
  const body = req.body;
  if (Object.keys(params).length === 0) return body ?? {};
  if (body === undefined || body === null || body === '') return { ...params };
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('INVALID_INPUT', 'The request body must be a JSON object');
  }
  return { ...body, ...params };
}
