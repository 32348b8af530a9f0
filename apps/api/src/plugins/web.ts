import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Client routes of SPEC section 2; anything else gets the app with a 404 status ('Page Not Found'). */
const CLIENT_ROUTES = new Set([
  '/',
  '/login',
  '/register',
  '/admin',
  '/admin/login',
  '/dashboard',
  '/resources',
  '/about',
  '/presentation',
]);

/**
 * Serves the built web app: hashed assets cached for a year (precompressed .br/.gz when
 * present), index.html never cached, and index.html for client routes so a reload works.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, opts: { root: string }) => {
    const indexFile = join(opts.root, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn({ root: opts.root }, 'web build not found: only the API is served (run pnpm build)');
      return;
    }
    const indexHtml = readFileSync(indexFile);
    await app.register(fastifyStatic, {
      root: opts.root,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, path) {
        if (/[\\/]assets[\\/]/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
    const sendIndex = (status: number) => (_req: unknown, reply: import('fastify').FastifyReply) =>
      reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    for (const path of CLIENT_ROUTES) app.get(path, sendIndex(200));
    app.decorate('sendWebApp', sendIndex(404));
  },
  { name: 'web' },
);

declare module 'fastify' {
  interface FastifyInstance {
    sendWebApp?: (req: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
}
