import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from './session';

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
 * present), pages never cached, and index.html (the app's shell) for client routes so a reload
 * works. `/` gets landing.html, the landing prerendered at build time
 * (docs/decisions/0503-prerendered-landing.md), unless the browser holds a session cookie: a
 * signed-in user is sent on to /admin or /dashboard by the app, with its loading placeholder
 * (SPEC section 2), instead of seeing the landing first.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, opts: { root: string }) => {
    const indexFile = join(opts.root, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn({ root: opts.root }, 'web build not found: only the API is served (run pnpm build)');
      return;
    }
    const indexHtml = readFileSync(indexFile);
    const prerendered = existsSync(join(opts.root, 'landing.html'));
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
    const sendIndex = (status: number) => (_req: FastifyRequest, reply: FastifyReply) =>
      reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    for (const path of CLIENT_ROUTES) {
      if (path === '/' && prerendered) {
        app.get(path, (req, reply) => {
          // The answer depends on the cookie: no cache may hand one visitor's page to another.
          reply.header('vary', 'cookie');
          if (req.cookies[SESSION_COOKIE]) return sendIndex(200)(req, reply);
          return reply.type('text/html; charset=utf-8').sendFile('landing.html');
        });
      } else app.get(path, sendIndex(200));
    }
    // The applicant's private status page (issue 15); its API answers 404 for a revoked token.
    app.get('/application/:token', (_req, reply) =>
      sendIndex(200)(_req, reply.header('referrer-policy', 'no-referrer')),
    );
    app.decorate('sendWebApp', sendIndex(404));
  },
  { name: 'web', dependencies: ['session'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    sendWebApp?: (req: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
}
