import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPaths } from '../../web/vite/client-paths';
import { buildApp } from '../src/app';
import { serverPaths } from '../src/http/web';
import { SESSION_COOKIE } from '../src/plugins/session';
import { GENEROUS_LIMITS, testConfig } from './helpers';

/** The built web app as the server hands it out (docs/decisions/0503-prerendered-landing.md). */

const SHELL = '<!doctype html><title>shell</title><div id="root"></div>';
const LANDING = `<!doctype html><title>landing</title><style data-critical></style><div id="root">${'<p>x</p>'.repeat(200)}</div>`;

let database: TestDatabase;
const roots: string[] = [];

async function serve(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'dn-web-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  const app = await buildApp({ config: testConfig(), database, limits: GENEROUS_LIMITS, logger: false, webRoot: root });
  await app.ready();
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('web pages', () => {
  it('/ is the prerendered landing for a visitor, never cached, precompressed when the build made it so', async () => {
    const app = await serve({
      'index.html': SHELL,
      'landing.html': LANDING,
      'landing.html.br': brotliCompressSync(LANDING).toString('latin1'),
    });
    try {
      const res = await app.inject({ url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(LANDING);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/cookie/);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");

      const br = await app.inject({ url: '/?r=someone', headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['set-cookie']).toMatch(/recruiter_id=someone/);
      expect(br.headers.vary).toMatch(/cookie/);
      expect(br.headers.vary).toMatch(/accept-encoding/);
    } finally {
      await app.close();
    }
  });

  it('a browser with a session cookie gets the app at /, which sends a signed-in user on; other pages get the app', async () => {
    const app = await serve({ 'index.html': SHELL, 'landing.html': LANDING });
    try {
      const signedIn = await app.inject({ url: '/', headers: { cookie: `${SESSION_COOKIE}=whatever` } });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.body).toBe(SHELL);
      expect(signedIn.headers['cache-control']).toBe('no-cache');
      expect(signedIn.headers.vary).toMatch(/cookie/);
      for (const url of ['/login', '/about', '/admin']) {
        const page = await app.inject({ url });
        expect(page.statusCode, url).toBe(200);
        expect(page.body, url).toBe(SHELL);
      }
      const missing = await app.inject({ url: '/no/such/page' });
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe(SHELL);
      // Issue 36: the invitation page is a page (it was served with 404), its token kept out of Referers.
      const invite = await app.inject({ url: `/admin/accept-invite?token=${'t'.repeat(43)}` });
      expect(invite.statusCode).toBe(200);
      expect(invite.body).toBe(SHELL);
      expect(invite.headers['referrer-policy']).toBe('no-referrer');
    } finally {
      await app.close();
    }
  });

  it('the light pages (decision 1160): /quote and the two token pages are prerendered for a visitor, never cached, the token pages without a Referer', async () => {
    const light = (name: string) =>
      `<!doctype html><title>${name}</title><style data-critical></style><div id="root">${'<p>x</p>'.repeat(200)}</div>`;
    const files = {
      'index.html': SHELL,
      'quote.html': light('quote'),
      'installation-status.html': light('installation'),
      'application-status.html': light('application'),
      'installation-status.html.br': brotliCompressSync(light('installation')).toString('latin1'),
    };
    const app = await serve(files);
    try {
      const token = 'A'.repeat(43);
      for (const [url, file, tokenPath] of [
        ['/quote', 'quote.html', false],
        [`/quote/${token}`, 'installation-status.html', true],
        [`/application/${token}`, 'application-status.html', true],
      ] as const) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toBe(files[file]);
        expect(res.body, url).not.toContain(token);
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.headers.vary, url).toMatch(/cookie/);
        expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
        if (tokenPath) expect(res.headers['referrer-policy'], url).toBe('no-referrer');
        // The status the page's script fetches first, preloaded with the page (issue 48): the address
        // that script writes (src/light/dom.ts), with the token percent-encoded; /quote has none.
        expect(res.headers.link, url).toBe(
          {
            'quote.html': undefined,
            'installation-status.html': `</trpc/jobs.statusPage?input=%7B%22token%22%3A%22${token}%22%7D>; rel=preload; as=fetch; crossorigin`,
            'application-status.html': `</trpc/site.applicationStatus?input=%7B%22token%22%3A%22${token}%22%7D>; rel=preload; as=fetch; crossorigin`,
          }[file],
        );
        // A signed-in browser gets the app, with the same headers.
        const signedIn = await app.inject({ url, headers: { cookie: `${SESSION_COOKIE}=whatever` } });
        expect(signedIn.body, url).toBe(SHELL);
        expect(signedIn.headers.vary, url).toMatch(/cookie/);
        expect(signedIn.headers.link, url).toBeUndefined();
        if (tokenPath) expect(signedIn.headers['referrer-policy'], url).toBe('no-referrer');
      }
      const br = await app.inject({ url: `/quote/${token}`, headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['referrer-policy']).toBe('no-referrer');
      // A token no page would hold is still only an address: encoded, never a second header or link.
      const odd = await app.inject({ url: `/quote/${encodeURIComponent('a>; rel=x, <b\r\nx: y"')}` });
      expect(odd.statusCode).toBe(200);
      expect(odd.headers.link).toBe(
        `</trpc/jobs.statusPage?input=${encodeURIComponent(JSON.stringify({ token: 'a>; rel=x, <b\r\nx: y"' }))}>; rel=preload; as=fetch; crossorigin`,
      );
      expect(odd.headers.x).toBeUndefined();
      const long = await app.inject({ url: `/quote/${'A'.repeat(129)}` });
      expect(long.statusCode).toBe(200);
      expect(long.headers.link).toBeUndefined();
    } finally {
      await app.close();
    }
    // A build without them serves the app there, as before.
    const plain = await serve({ 'index.html': SHELL });
    try {
      for (const url of ['/quote', `/quote/${'A'.repeat(43)}`, `/application/${'A'.repeat(43)}`]) {
        const res = await plain.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toBe(SHELL);
      }
    } finally {
      await plain.close();
    }
  });

  it('a build without landing.html serves the app at / too', async () => {
    const app = await serve({ 'index.html': SHELL });
    try {
      const res = await app.inject({ url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(SHELL);
    } finally {
      await app.close();
    }
  });

  it('every page of the client router answers 200 with the shell on a reload or bookmark; unknown addresses still 404 (issue 47, item 6)', async () => {
    // The router's own route list, as the web build writes it into routes.json (vite/route-manifest.ts).
    const paths = clientPaths(readFileSync(join(import.meta.dirname, '../../web/src/routeTree.gen.ts'), 'utf8'));
    expect(paths).toEqual(expect.arrayContaining(['/admin/jobs', '/admin/payouts', '/admin/system', '/admin/team']));
    const app = await serve({ 'index.html': SHELL, 'routes.json': JSON.stringify({ paths }) });
    try {
      const urls = paths.flatMap(serverPaths).map((u) => u.replace(/:\w+/g, 'c0ffee00-0000-4000-8000-000000000001'));
      expect(urls).toEqual(expect.arrayContaining(['/admin/dealers/c0ffee00-0000-4000-8000-000000000001', '/quote']));
      for (const url of urls) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toMatch(/text\/html/);
        if (url !== '/') expect(res.body, url).toBe(SHELL);
      }
      // With a query string, as a bookmark of a filtered section carries one.
      expect((await app.inject({ url: '/admin/jobs?status=unrouted' })).statusCode).toBe(200);
      for (const url of ['/admin/nope', '/admin/dealers', '/admin/jobs/extra', '/dashboardx', '/routes']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).toBe(SHELL);
      }
    } finally {
      await app.close();
    }
  });

  it('the router syntax becomes the server patterns: parameters, an optional segment, a layout index', () => {
    expect(serverPaths('/admin/dealers/$id')).toEqual(['/admin/dealers/:id']);
    expect(serverPaths('/quote/{-$token}')).toEqual(['/quote', '/quote/:token']);
    expect(serverPaths('/admin/')).toEqual(['/admin']);
    expect(serverPaths('/')).toEqual(['/']);
  });

  it('a broken routes.json is ignored: the fixed pages still answer, nothing else does', async () => {
    const app = await serve({ 'index.html': SHELL, 'routes.json': '{"paths": 3' });
    try {
      expect((await app.inject({ url: '/admin' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/admin/jobs' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
