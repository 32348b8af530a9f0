import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import { createRequestContext, type Deps } from '../trpc/context';
import { accountRoutes } from './account';
import { adminRoutes } from './admin';
import { authRoutes } from './auth';
import { type Access, parseInput, type RestRoute, rawInput } from './route';
import { siteRoutes } from './site';

/** Every documented /api path: the OpenAPI document and the authorization tests read this table. */
export const restRoutes: RestRoute[] = [...authRoutes, ...siteRoutes, ...accountRoutes, ...adminRoutes];

/**
 * Registers the table as three sibling encapsulated plugins. The dealer and admin ones carry
 * the hook that refuses: access is decided by the plugin a route lives in, never by its URL.
 */
export async function restPlugin(app: FastifyInstance, opts: { deps: Deps; routes?: RestRoute[] }) {
  const routes = opts.routes ?? restRoutes;
  for (const access of ['public', 'dealer', 'admin'] as Access[]) {
    await app.register(async (scope) => {
      if (access !== 'public') {
        scope.addHook('preHandler', async (req) => {
          const user = await req.loadUser();
          if (!user) throw new AppError('UNAUTHORIZED', 'Please sign in');
          if (access === 'admin' && user.role !== 'admin') {
            throw new AppError('FORBIDDEN', 'Access Denied: You need administrator privileges to access this page.');
          }
          if (access === 'dealer' && user.role !== 'dealer') {
            throw new AppError('FORBIDDEN', 'This is for dealer accounts');
          }
        });
      }
      for (const route of routes.filter((r) => r.access === access)) {
        scope.route({
          method: route.method,
          url: route.url,
          handler: async (req, reply) => {
            const input = route.input ? parseInput(route.input, rawInput(req)) : undefined;
            const ctx = await createRequestContext(opts.deps, req, reply);
            const result = await route.handler(ctx, input, { req, reply });
            if (reply.sent) return reply;
            return result ?? { ok: true };
          },
        });
      }
    });
  }
}
