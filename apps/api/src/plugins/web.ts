import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from './session';

/** How the built web app answers a page: the routes that serve it are declared in http/web.ts. */
export interface WebApp {
  /** The app's shell (index.html), never cached: the client router draws the page. */
  page(reply: FastifyReply, status: number): FastifyReply;
  /**
   * `/`: landing.html, the landing prerendered at build time
   * (docs/decisions/0503-prerendered-landing.md), unless the browser holds a session cookie: a
   * signed-in user is sent on to /admin or /dashboard by the app, with its loading placeholder
   * (SPEC section 2), instead of seeing the landing first.
   */
  landing(req: FastifyRequest, reply: FastifyReply): FastifyReply;
  /**
   * A light page (docs/decisions/1160-light-homeowner-pages.md): the homeowner's quote form or one
   * of the two private status pages, prerendered at build time (no status or token in it: the page's
   * script fetches the status), served as the landing is, to a browser without a session cookie;
   * the app's shell otherwise, or when the build has no such file. `preload`: a same-origin address
   * the page's script fetches first, sent with the light page as a `Link` preload header.
   */
  light(req: FastifyRequest, reply: FastifyReply, file: LightPage, preload?: string): FastifyReply;
  /**
   * The client router's full paths (TanStack syntax) from the build's routes.json (written by the
   * web build's route manifest, decision 1070); null for a build without one.
   */
  clientPaths: readonly string[] | null;
}

/** The light pages a build writes (apps/web/vite/prerender-light.ts). */
export const LIGHT_PAGES = ['quote.html', 'installation-status.html', 'application-status.html'] as const;
export type LightPage = (typeof LIGHT_PAGES)[number];

/** Reads the build's route manifest: `{ "paths": string[] }`, or null when absent or unreadable. */
function readManifest(file: string): string[] | null {
  if (!existsSync(file)) return null;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as { paths?: unknown };
    return Array.isArray(m.paths) && m.paths.every((p) => typeof p === 'string') ? (m.paths as string[]) : null;
  } catch {
    return null;
  }
}

/**
 * Serves the built web app's files: hashed assets cached for a year (precompressed .br/.gz when
 * present), everything else never cached. Every file is public, declared so on its route. The
 * pages (client routes, and the not-found page) are answered with `app.webApp`; absent when there
 * is no build.
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
    const clientPaths = readManifest(join(opts.root, 'routes.json'));
    const lightPages = new Set<string>(LIGHT_PAGES.filter((f) => existsSync(join(opts.root, f))));
    if (!clientPaths)
      app.log.warn({ root: opts.root }, 'web build without routes.json: only the fixed pages answer 200');
    // The build's files are public: each route @fastify/static adds for one (its config names the
    // file) declares so, as every route must (http/serve.ts).
    app.addHook('onRoute', (route) => {
      const config = route.config as { file?: string } | undefined;
      if (config?.file !== undefined) route.config = { ...config, access: 'public' };
    });
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
    const page: WebApp['page'] = (reply, status) =>
      reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    app.decorate('webApp', {
      page,
      clientPaths,
      landing(req, reply) {
        if (!prerendered) return page(reply, 200);
        // The answer depends on the cookie: no cache may hand one visitor's page to another.
        reply.header('vary', 'cookie');
        if (req.cookies[SESSION_COOKIE]) return page(reply, 200);
        return reply.type('text/html; charset=utf-8').sendFile('landing.html');
      },
      light(req, reply, file, preload) {
        if (!lightPages.has(file)) return page(reply, 200);
        reply.header('vary', 'cookie');
        if (req.cookies[SESSION_COOKIE]) return page(reply, 200);
        // As the shell's <link rel="preload" as="fetch" crossorigin>: the script's fetch (same-origin
        // credentials) takes the preloaded answer. The address is percent-encoded (lightStatusUrl).
        if (preload) reply.header('link', `<${preload}>; rel=preload; as=fetch; crossorigin`);
        return reply.type('text/html; charset=utf-8').sendFile(file);
      },
    } satisfies WebApp);
  },
  { name: 'web', dependencies: ['session'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    webApp?: WebApp;
  }
}
