import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '@dn/db';
import { TOKEN_IN_TEXT } from '@dn/schema';
import { API_TOKEN_IN_TEXT } from '@dn/schema/api-tokens';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Deps } from './context';
import type { Config } from './env';
import { httpPlugin } from './http/index';
import { declaredAccessPlugin } from './http/serve';
import { type Clock, systemClock } from './lib/clock';
import { onQueueFull } from './lib/password';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { etagPlugin } from './plugins/etag';
import { metricsPlugin } from './plugins/metrics';
import { referralPlugin } from './plugins/referral';
import { cachePolicyPlugin, securityPlugin } from './plugins/security';
import { sessionPlugin } from './plugins/session';
import { webPlugin } from './plugins/web';
import { DEFAULT_LIMITS, type RateLimits, scaledLimits } from './services/accounts/rate-limit';
import { withdrawIneligibleIn } from './services/jobs/offers';
import { MailService } from './services/mail/outbox';
import { unsubscribeUrl } from './services/mail/unsubscribe';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Overrides of the rate limits (tests raise them to send many requests from one address). */
  limits?: Partial<RateLimits>;
  /** Serve the built web app from this folder (production). */
  webRoot?: string | undefined;
  logger?: boolean | object;
  /** The clock the services read (tests pass a ShiftedClock); the system's by default. */
  clock?: Clock;
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
  // Issue 39 (decision 0961): TINs and account numbers, should any object carrying one be logged.
  '*.tin',
  '*.accountNumber',
  '*.payerTin',
  'tin',
  'accountNumber',
];

export const BODY_LIMIT = 128 * 1024;

/** Query parameters whose values are secrets (one-time links, codes, passwords): never logged. */
const SECRET_PARAM = /token|code|pass|secret|key|sig|auth/i;
/**
 * A one-time token (43 base64url characters) standing alone in a path or a decoded value, or a
 * personal API token pasted into a URL (decision 0980).
 */
const TOKEN_RUN = new RegExp(`${TOKEN_IN_TEXT}|${API_TOKEN_IN_TEXT}`, 'g');
const hasToken = (text: string) => text.search(TOKEN_RUN) !== -1;

const decoded = (raw: string) => {
  if (!/[%+]/.test(raw)) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw; // a malformed escape: judge the raw text
  }
};

/**
 * A request URL with its secrets replaced by [redacted]: a token in the path (the applicant's status
 * page, /application/<token>; issue 35), and the values of secret-looking query parameters or of any
 * parameter holding a token (tRPC's `input={"token":...}`).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const safePath = hasToken(path) ? path.replace(TOKEN_RUN, '[redacted]') : path;
  if (q === -1) return safePath;
  const parts = url.slice(q + 1).split('&');
  let redacted = safePath !== path;
  for (const [i, part] of parts.entries()) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const raw = part.slice(0, eq);
    if (SECRET_PARAM.test(decoded(raw)) || hasToken(decoded(part.slice(eq + 1)))) {
      parts[i] = `${raw}=[redacted]`;
      redacted = true;
    }
  }
  // Every request is logged: most carry no secret, and their URL is logged as it came.
  return redacted ? `${safePath}?${parts.join('&')}` : url;
}

/**
 * One line per request, written when the answer has gone: method, redacted URL, route, status,
 * duration, and the request id (bound by Fastify as reqId). No separate "incoming request" line.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: req.method,
      url: redactUrl(req.url),
      route: req.routeOptions.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }

  override routeNotFound(req: FastifyRequest): void {
    req.log.info({ method: req.method, url: redactUrl(req.url) }, 'route not found');
  }
}

/** The app's pino options; a caller's `logger` object (tests: a destination stream) is laid over them. */
export function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    redact: { paths: LOG_REDACT, censor: '[redacted]' },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        route: req.routeOptions?.url,
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Builds the app; never listens (tests use app.inject, server.ts listens). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance & { deps: Deps }> {
  const { config, database } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : ({
            ...loggerOptions(config),
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          } as FastifyServerOptions['logger']),
    logController: new OneLinePerRequest(),
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
    mail: new MailService(database.db, {
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      replyTo: config.replyTo,
      log: app.log,
      logBodies: config.nodeEnv !== 'production',
      maxConnections: config.smtpMaxConnections,
      ratePerSecond: config.smtpRatePerSecond,
      dkim: config.dkim,
      unsubscribeUrl: (address, category) => unsubscribeUrl(config.publicUrl, config.sessionSecret, address, category),
    }),
    limits: { ...scaledLimits(DEFAULT_LIMITS, config.rateLimitMultiplier), ...opts.limits },
    clock: opts.clock ?? systemClock,
  };
  deps.offers = { withdrawIneligible: (trx, ids) => withdrawIneligibleIn(trx, deps, ids) };
  app.decorate('deps', deps);

  // First, so it sees every route: the app refuses to start with one that declares no access.
  await app.register(declaredAccessPlugin);
  await app.register(errorsPlugin);
  // Early, so its onResponse hook times every request.
  await app.register(metricsPlugin, { deps, pool: database.pool });
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(sessionPlugin, { db: database.db, secret: config.sessionSecret, publicUrl: config.publicUrl });
  await app.register(authPlugin, { deps });
  await app.register(referralPlugin, { publicUrl: config.publicUrl });
  await app.register(etagPlugin);
  await app.register(cachePolicyPlugin);

  // The hashing queue's refusals, on either transport: one warning a second with their count.
  onQueueFull((refused) =>
    app.log.warn({ refused }, 'password hashing queue full: sign-ins and password checks refused with 503'),
  );

  if (opts.webRoot) await app.register(webPlugin, { root: opts.webRoot });
  // Every route: health, /trpc, the REST table, the web app's pages (http/).
  await app.register(httpPlugin, { deps, database });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?', 1)[0] ?? '';
    if (req.method === 'GET' && app.webApp && !path.startsWith('/api/') && !path.startsWith('/trpc')) {
      return app.webApp.page(reply, 404);
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
