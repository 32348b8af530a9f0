import type { Database } from '@dn/db';
import { stringifyAnswer } from '@dn/db/json-text';
import { APP_VERSION } from '@dn/schema';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context';
import { metricsRoute } from './metrics';
import { openApiDocument } from './openapi';
import { restRoutes } from './routes';
import { serveRoutes } from './serve';
import { siteRoutes } from './site';
import { trpcPlugin } from './trpc';
import { webRoutes } from './web';

/**
 * Every route the app serves: the health checks and the OpenAPI document, /trpc, the REST table
 * (generated and hand-written) and, with a web build, the web app's pages. Each declares its
 * access and http/serve.ts enforces it.
 */
export async function httpPlugin(app: FastifyInstance, opts: { deps: Deps; database: Database }) {
  const openapi = openApiDocument(restRoutes, APP_VERSION, opts.deps.config.publicUrl);
  await app.register(serveRoutes, { deps: opts.deps, routes: siteRoutes(opts.database, openapi) });
  await app.register(serveRoutes, { deps: opts.deps, routes: [metricsRoute(opts.deps)] });
  await app.register(trpcPlugin, {
    deps: opts.deps,
    onInternalError: (error, path) => app.log.error({ err: error.cause ?? error, path }, 'trpc error'),
  });
  await app.register(async (api) => {
    // JSON.stringify, with JSON that PostgreSQL wrote written as it is (decision 0800).
    api.setReplySerializer((payload) => stringifyAnswer(payload));
    await api.register(serveRoutes, { deps: opts.deps, routes: restRoutes });
  });
  if (app.webApp) await app.register(serveRoutes, { deps: opts.deps, routes: webRoutes(app.webApp.clientPaths) });
}
