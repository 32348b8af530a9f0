import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../context';
import type { HttpRoute } from './route';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * GET /metrics, Prometheus's text format (plugins/metrics.ts; decision 0971). Declared public: no
 * session is read, the scraper proves itself with METRICS_TOKEN. Without the token, with a wrong
 * one, or when METRICS_TOKEN is unset it answers exactly what a path that does not exist answers,
 * so nobody can tell it is there.
 */
export function metricsRoute(deps: Deps): HttpRoute {
  return {
    method: 'GET',
    url: '/metrics',
    access: 'public',
    summary: 'Prometheus metrics, with Authorization: Bearer METRICS_TOKEN (404 without it)',
    async handle({ req, reply }) {
      const token = deps.config.metricsToken;
      if (!token || !bearerMatches(req.headers.authorization, token)) {
        // The app's own not-found answer (issue 45): the web app's HTML 404 page when it serves one.
        return reply.callNotFound();
      }
      const metrics = req.server.metrics;
      const text = await metrics.render();
      return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
    },
  };
}
