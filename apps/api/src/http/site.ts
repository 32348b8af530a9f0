import type { Database } from '@dn/db';
import { ping } from '@dn/db/queries/health';
import { APP_VERSION } from '@dn/schema';
import type { HttpRoute } from './route';

/** The routes beside the API: health checks for the orchestrator and the OpenAPI document. */
export function siteRoutes(database: Database, openapi: object): HttpRoute[] {
  return [
    {
      method: 'GET',
      url: '/healthz',
      access: 'public',
      summary: 'Liveness: the process answers (no database read)',
      handle: () => ({ status: 'ok', version: APP_VERSION }),
    },
    {
      method: 'GET',
      url: '/readyz',
      access: 'public',
      summary: 'Readiness: the database answers',
      async handle({ req, reply }) {
        try {
          await ping(database.db);
          return { status: 'ready', database: database.kind };
        } catch (err) {
          req.log.warn({ err }, 'readiness check failed');
          return reply.status(503).send({ status: 'unavailable', message: 'The database is not answering' });
        }
      },
    },
    {
      method: 'GET',
      url: '/api/openapi.json',
      access: 'public',
      summary: 'The OpenAPI document of the REST table',
      handle: () => openapi,
    },
  ];
}
