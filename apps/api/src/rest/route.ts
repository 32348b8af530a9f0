import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { z } from 'zod';
import type { AdminRole } from '../access';
import type { Deps } from '../context';

/** Who may call a route, as the tables and tests read it ('signed-in' procedures count as public). */
export type Access = 'public' | 'dealer' | 'admin';

/** One documented /api route (url in Fastify's `:id` form). OpenAPI and the authorization tests read the table. */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  access: Access;
  /** For an admin route: the least role it needs (the same rule as the procedure builders). */
  role?: AdminRole;
  summary: string;
  input?: z.ZodType;
  /** A success that is not JSON, for the OpenAPI document. */
  responds?: string;
  /** Request headers the route requires (the webhook's signature headers), for the OpenAPI document. */
  headers?: readonly { name: string; description: string }[];
  /** Error statuses beyond those its access implies (a public route's 401), with what they mean. */
  errors?: Readonly<Record<string, string>>;
  /** Only for a route that must read its raw body (the signed orders webhook). */
  preParsing?: preParsingHookHandler;
  handle(io: { deps: Deps; req: FastifyRequest; reply: FastifyReply }): Promise<unknown>;
}
