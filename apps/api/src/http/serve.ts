import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type Access, type AdminRole, assertAccess, tokenRefusal } from '../access';
import type { Context, Deps } from '../context';
import { createRequestContext } from '../plugins/auth';
import type { HttpRoute, RouteCall } from './route';

/** The access declared on a route Fastify serves: its route config, read back by the check below. */
export interface RouteAccessConfig {
  access?: Access;
  role?: AdminRole;
  /** Refused to a personal API token (http/route.ts). */
  sessionOnly?: true;
}

const ACCESS: ReadonlySet<string> = new Set<Access>(['public', 'signed-in', 'dealer', 'admin']);

/** Why a route's declaration is refused, or null when it declares an access (and an admin one its role). */
export function undeclared(route: { method: unknown; url: string; config?: unknown }): string | null {
  const { access, role } = (route.config ?? {}) as RouteAccessConfig;
  const name = `${String(route.method)} ${route.url}`;
  if (access === undefined || !ACCESS.has(access)) return `${name} declares no access`;
  if (access === 'admin' && role === undefined) return `${name} is an admin route without its least role`;
  return null;
}

/**
 * The one place every HTTP route's access is enforced: the route's declared access is checked
 * with the one rule (access.ts) before its handler runs, the same rule the procedure builders
 * apply. A generated route declares its procedure's access (http/procedures.ts), whose own
 * middleware checks it again for tRPC and callers without HTTP; /trpc declares public and each of
 * its procedures checks its own (http/trpc.ts). A route whose body must stay raw bytes (the
 * signed webhook) is served in a scope where every body is read as a Buffer.
 */
export async function serveRoutes(app: FastifyInstance, opts: { deps: Deps; routes: readonly HttpRoute[] }) {
  const raw = opts.routes.filter((r) => r.rawBody);
  for (const route of opts.routes) if (!route.rawBody && !route.multipart) app.route(options(app, route, opts.deps));
  // An upload (multipart/form-data) is served in a scope of its own, so no other route reads that
  // content type: its parts are streamed by the handler, never buffered before the access check, and
  // a file over the route's size, a second file or too many fields stop the reading (the handler answers 413/400).
  for (const route of opts.routes.filter((r) => r.multipart)) {
    await app.register(async (scope) => {
      await scope.register(multipart, {
        limits: {
          fileSize: route.multipart!.fileSize,
          files: 1,
          fields: 10,
          fieldSize: 1_000,
          parts: 12,
          headerPairs: 50,
          fieldNameSize: 100,
        },
      });
      scope.route(options(scope, route, opts.deps));
    });
  }
  if (raw.length === 0) return;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    for (const route of raw) scope.route(options(scope, route, opts.deps));
  });
}

function options(app: FastifyInstance, route: HttpRoute, deps: Deps): RouteOptions {
  const config: RouteAccessConfig = {
    access: route.access,
    role: route.role,
    ...(route.sessionOnly ? { sessionOnly: true as const } : {}),
  };
  const refused = undeclared({ ...route, config });
  if (refused) throw new Error(`${refused}: declare it (http/route.ts)`);
  const method = route.method === 'ALL' ? app.supportedMethods : route.method;
  return { method, url: route.url, config, handler: (req, reply) => serve(route, deps, req, reply) };
}

async function serve(route: HttpRoute, deps: Deps, req: FastifyRequest, reply: FastifyReply) {
  let pending: Promise<Context> | undefined;
  const context = () => {
    pending ??= createRequestContext(deps, req, reply);
    return pending;
  };
  if (route.access !== 'public') {
    const { user } = await context();
    assertAccess(user, route.access, route.role);
    // A read-only API token makes no change through a hand-written route either (decision 0980),
    // and no token calls a session-only one (issue 45).
    const refused = tokenRefusal(user, route.method !== 'GET', route.sessionOnly === true);
    if (refused) throw refused;
  }
  // The check above is what gives a route that is not public a context with its user.
  const call = { deps, req, reply, context } as RouteCall<Access>;
  const result = await (route.handle as (call: RouteCall<Access>) => unknown)(call);
  return reply.sent ? reply : (result ?? { ok: true });
}

/**
 * Refuses to start an app with a route that declares no access, whoever registered it (a route
 * added with `app.get` beside the table, a plugin's): every route Fastify serves is listed with
 * its access in `app.servedRoutes`. Registered first, so it sees every route.
 */
export const declaredAccessPlugin = fp(
  async (app: FastifyInstance) => {
    const seen: RouteOptions[] = [];
    app.decorate('servedRoutes', () =>
      seen.map((r) => ({ method: r.method, url: r.url, ...(r.config as RouteAccessConfig | undefined) })),
    );
    app.addHook('onRoute', (route) => {
      seen.push(route);
    });
    // Checked once every plugin has declared its routes (the web app's files declare theirs in its scope).
    app.addHook('onReady', async () => {
      const refused = seen.map(undeclared).filter((why) => why !== null);
      if (refused.length) throw new Error(`Routes without a declared access: ${refused.join('; ')}`);
    });
  },
  { name: 'declared-access' },
);

declare module 'fastify' {
  /** A route's declared access in its config (@fastify/multipart's types make this interface one to match). */
  interface FastifyContextConfig extends RouteAccessConfig {}
  interface FastifyInstance {
    /** Every route Fastify serves, with its declared access (read by test/http-routes.int.test.ts). */
    servedRoutes(): {
      method: RouteOptions['method'];
      url: string;
      access?: Access;
      role?: AdminRole;
      sessionOnly?: true;
    }[];
  }
}
