import type { AnyProcedure } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context';
import { answeredNotModified } from '../plugins/etag';
import { versionTag } from '../trpc/versioned';

/**
 * The one way HTTP calls a procedure, for REST (http/procedures.ts) and /trpc's GET of queries
 * (http/trpc.ts): its middlewares (access, error mapping), its input parser and its resolver, as
 * tRPC's own handler runs them. The input is read when the procedure asks for it, after its
 * access check.
 */
export function callProcedure(
  procedure: AnyProcedure,
  path: string,
  ctx: Context,
  getRawInput: () => Promise<unknown>,
  batchIndex = 0,
): Promise<unknown> {
  return procedure({ path, type: procedure._def.type, ctx, getRawInput, signal: undefined, batchIndex });
}

/** `versionGate`'s answer when it has answered 304. */
export const NOT_MODIFIED = Symbol('304');

/**
 * A GET of versioned procedures (decision 0790): 304 without running them when the client holds
 * their tag (NOT_MODIFIED), else the tag to put on the answer (null: not every one is versioned).
 */
export function versionGate(
  ctx: Context,
  req: FastifyRequest,
  reply: FastifyReply,
  procedures: readonly AnyProcedure[],
): string | null | typeof NOT_MODIFIED {
  const tag = versionTag(ctx, req.url, procedures);
  return tag && answeredNotModified(req, reply, tag) ? NOT_MODIFIED : tag;
}
