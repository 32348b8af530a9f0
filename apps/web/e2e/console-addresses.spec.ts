import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

/**
 * Issue 47, item 6: every page of the client router answers 200 when opened directly (a reload, a
 * bookmark, an uptime probe), walked from the route list the production build wrote (dist/routes.json,
 * made from the router's own tree); an unknown address still answers 404.
 */
const { paths } = JSON.parse(readFileSync(new URL('../dist/routes.json', import.meta.url), 'utf8')) as {
  paths: string[];
};

test('every address of the router answers 200; unknown ones 404', async ({ request }) => {
  expect(paths).toEqual(expect.arrayContaining(['/admin/jobs', '/admin/payouts', '/admin/system', '/admin/team']));
  const urls = paths.flatMap((p) => {
    const url = p.replace(/\/$/, '') || '/';
    // An optional segment: the page with and without it; a parameter: any value.
    const filled = url.replace(/\{-\$\w+\}/, 'abc').replace(/\$\w+/g, 'c0ffee00-0000-4000-8000-000000000001');
    return url.includes('{-$') ? [url.replace(/\/\{-\$\w+\}/, ''), filled] : [filled];
  });
  for (const url of urls) {
    const res = await request.get(url, { maxRedirects: 0 });
    expect(res.status(), url).toBe(200);
    expect(res.headers()['content-type'], url).toContain('text/html');
  }
  for (const url of ['/admin/no-such-section', '/admin/jobs/nope', '/no/such/page']) {
    expect((await request.get(url)).status(), url).toBe(404);
  }
});
