import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Access, AdminRole } from '../access';
import type { Context, Deps, User } from '../context';

export type { Access, AdminRole } from '../access';

/** The HTTP methods a route may answer. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler is given. Its access is checked before it runs (http/serve.ts). */
export interface RouteCall<A extends Access> {
  deps: Deps;
  req: FastifyRequest;
  reply: FastifyReply;
  /**
   * The request's context, built once on first call: a route that needs no user (health, the web
   * app's pages) never reads the session. For a route that is not public it is already built, and
   * its `user` is the one the access was checked for.
   */
  context(): Promise<A extends 'public' ? Context : Context & { user: User }>;
}

interface Declared<A extends Access> {
  /** ALL: every method Fastify knows (the /trpc mount, where tRPC refuses what it does not answer). */
  method: Method | 'ALL';
  /** Fastify's form: `:id` for a path parameter. */
  url: string;
  /**
   * Who may call it, in the procedures' words (public, signed-in, dealer, admin): required, and
   * checked in one place for every route (http/serve.ts), with the same rule as the procedure
   * builders (access.ts).
   */
  access: A;
  /**
   * Never answered to a personal API token, only to a signed-in session (decision 0980; issue 45:
   * the files with full account numbers and TINs). A generated route carries its procedure's
   * `meta.sessionOnly`; checked with the access, in one place (http/serve.ts).
   */
  sessionOnly?: true;
  /** What it does: the OpenAPI summary of an /api route, and a reader's note on every other. */
  summary: string;
  /**
   * The OpenAPI operationId of an /api route: a generated route's is its procedure's path
   * (`admin.approve`), a hand-written one's a stable name in the same style, never derived from its URL.
   */
  operationId?: string;
  /** The input schema, for the OpenAPI document (a GET's query parameters, another method's body). */
  input?: z.ZodType;
  /** A success that is not JSON, for the OpenAPI document. */
  responds?: string;
  /** Request headers the route requires (the webhook's signature headers), for the OpenAPI document. */
  headers?: readonly { name: string; description: string }[];
  /** Error statuses beyond those its access implies (a public route's 401), with what they mean. */
  errors?: Readonly<Record<string, string>>;
  /** The body as its raw bytes (`req.body` a Buffer, any content type): for a signature over them. */
  rawBody?: true;
  /**
   * The body is multipart/form-data (a file upload), read by the handler as a stream of parts
   * (@fastify/multipart, with the limits of http/serve.ts) after its access is checked.
   */
  multipart?: { fileSize: number };
  handle(call: RouteCall<A>): unknown;
}

/**
 * One HTTP route, generated from a procedure (http/procedures.ts) or written by hand. An admin
 * route names the least admin role it needs (docs/decisions/0610-admin-roles.md).
 */
export type HttpRoute =
  | (Declared<'public'> & { role?: undefined })
  | (Declared<'signed-in'> & { role?: undefined })
  | (Declared<'dealer'> & { role?: undefined })
  | (Declared<'admin'> & { role: AdminRole });
