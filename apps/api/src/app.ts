import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '@dn/db';
import { ping } from '@dn/db/queries/health';
import { APP_VERSION } from '@dn/schema';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './env';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { etagPlugin } from './plugins/etag';
import { referralPlugin } from './plugins/referral';
import { cachePolicyPlugin, securityPlugin } from './plugins/security';
import { sessionPlugin } from './plugins/session';
import { webPlugin } from './plugins/web';
import { restPlugin, restRoutes } from './rest/index';
import { openApiDocument } from './rest/openapi';
import { type AppRouter, appRouter } from './routers/index';
import { MailService } from './services/mail';
import { DEFAULT_LIMITS, type RateLimits, scaledLimits } from './services/rate-limit';
import { createRequestContext, type Deps } from './trpc/context';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Overrides of the rate limits (tests raise them to send many requests from one address). */
  limits?: Partial<RateLimits>;
  /** Serve the built web app from this folder (production). */
  webRoot?: string | undefined;
  logger?: boolean | object;
}

export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.confirmPassword',
  'password',
  'token',
];

export const BODY_LIMIT = 128 * 1024;

/** Builds the app; never listens (tests use app.inject, server.ts listens). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance & { deps: Deps }> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: { paths: LOG_REDACT, censor: '[redacted]' },
    },
    bodyLimit: BODY_LIMIT,
    // Fastify's default is no limit: a client trickling a body would hold its connection forever.
    requestTimeout: 30_000,
    trustProxy: config.trustProxy ? config.trustProxy.split(',').map((s) => s.trim()) : false,
    routerOptions: { maxParamLength: 5_000 },
    requestIdHeader: false,
  });

  const deps: Deps = {
    db: database.db,
    config,
    log: app.log,
    mail: new MailService(database.db, { smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log }),
    limits: { ...scaledLimits(DEFAULT_LIMITS, config.rateLimitMultiplier), ...opts.limits },
  };
  app.decorate('deps', deps);

  await app.register(errorsPlugin);
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(sessionPlugin, { db: database.db, secret: config.sessionSecret });
  await app.register(authPlugin, { deps });
  await app.register(referralPlugin);
  await app.register(etagPlugin);
  await app.register(cachePolicyPlugin);

  app.get('/healthz', async () => ({ status: 'ok', version: APP_VERSION }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await ping(database.db);
      return { status: 'ready', database: database.kind };
    } catch (err) {
      app.log.warn({ err }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', message: 'The database is not answering' });
    }
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => createRequestContext(deps, req, res),
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, path }, 'trpc error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  const openapi = openApiDocument(restRoutes, APP_VERSION);
  app.get('/api/openapi.json', async () => openapi);
  await app.register(restPlugin, { deps });

  if (opts.webRoot) await app.register(webPlugin, { root: opts.webRoot });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?', 1)[0] ?? '';
    if (req.method === 'GET' && app.sendWebApp && !path.startsWith('/api/') && !path.startsWith('/trpc')) {
      return app.sendWebApp(req, reply);
    }
    return reply.status(404).send({ message: `No route for ${req.method} ${path.slice(0, 200)}` });
  });

  return app as FastifyInstance & { deps: Deps };
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}

/** Where the web build lives relative to the api package (source or bundled dist). */
export function defaultWebRoot(): string {
  return join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'web', 'dist');
}
