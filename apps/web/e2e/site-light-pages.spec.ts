import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { applyAsDealer, uniqueEmail } from './support/accounts';
import { seriousViolations } from './support/axe';
import { linkIn, waitForMail } from './support/mail';
import { appStarted } from './support/site';

/**
 * The homeowner's quote form and the two private status pages are prerendered like the landing and
 * usable with their own small script before (or without) the app booting
 * (docs/decisions/1160-light-homeowner-pages.md).
 */

const PHONE = { width: 390, height: 844 };

/** Every script the page downloads, with its gzip size. */
function scriptsDownloaded(page: Page) {
  const files: { path: string; gzipKB: number }[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() !== 'script') return;
    const body = await r.body().catch(() => Buffer.alloc(0));
    files.push({ path: new URL(r.url()).pathname, gzipKB: gzipSync(body, { level: 9 }).length / 1024 });
  });
  return files;
}

/**
 * The page's data requests (tRPC paths). The status the page draws is preloaded by the server with
 * the page (a `Link` header, issue 48) at the address its script fetches, so it is asked for once:
 * a preload that missed would be a second request. auth.me is never asked: a light page goes to a
 * browser without a session only.
 */
function dataRequests(page: Page) {
  const paths: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/trpc/')) paths.push(path);
  });
  return paths;
}

const totalKB = (files: { gzipKB: number }[]) => files.reduce((a, f) => a + f.gzipKB, 0);

/** What the page says: its main's text, spaces folded. */
// biome-ignore lint/performance/useDomNodeTextContent: what people see (the rendered text), not the markup's
const mainText = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ').trim();

async function requestQuote(page: Page, email: string) {
  const res = await page.request.post('/api/quote-requests', {
    data: {
      fullName: 'Lena Light',
      email,
      phone: '512-555-0143',
      street: '9 Elm St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      consent: true,
    },
  });
  expect(res.ok()).toBe(true);
  return linkIn(await waitForMail(email, /received your installation request/), '/quote/');
}

test('/quote on a phone works with its own script alone: the schema messages, a 400 from the server, the answer in view and focused', async ({
  browser,
}) => {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  const scripts = scriptsDownloaded(page);
  const res = await page.goto('/quote');
  const html = await res!.text();
  expect(html).toContain('Get an installation quote');
  expect(html).toMatch(/<style data-critical>/);
  expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
  expect(html.match(/<script\b[^>]*>/g)).toHaveLength(1);
  await page.waitForLoadState('load');
  await page.waitForTimeout(500);
  // What the page downloads before anyone touches it (after that, the app's files are only prefetched
  // into the cache, not run: decision 0503).
  const atLoad = [...scripts];
  expect(await seriousViolations(page)).toEqual([]);

  // Nothing filled: the schema's messages under their fields, without a request.
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/trpc/') || r.url().includes('/api/')) requests.push(r.url());
  });
  await page.getByRole('button', { name: 'Request my quote' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Please agree to be contacted about your installation')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Full name', exact: true })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Full name', exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(requests).toEqual([]);
  // (No axe run here: Mantine's error red, the same in the app, is below 4.5:1 on white; decision 1160.)
  await page.screenshot({ path: test.info().outputPath('quote-errors-390.png'), fullPage: true });

  const email = uniqueEmail('light-quote');
  await page.getByRole('textbox', { name: 'Full name', exact: true }).fill('Lena Light');
  await expect(page.getByText('Name is required')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('512-555-0143');
  await page.getByRole('textbox', { name: 'Street', exact: true }).fill('9 Elm St');
  await page.getByRole('textbox', { name: 'City', exact: true }).fill('Austin');
  // The state found by its name, as in the app's Select.
  await page.getByRole('combobox', { name: 'State' }).fill('Texas');
  await page.getByRole('option', { name: 'Texas (TX)', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'State' })).toHaveValue('Texas (TX)');
  // A ZIP code of the right shape that is no US ZIP code: only the server knows; its 400 names the field.
  await page.getByRole('textbox', { name: 'ZIP code', exact: true }).fill('00000');
  await page.getByLabel('I agree to be contacted by phone and email about my installation').check();
  await page.getByRole('button', { name: 'Request my quote' }).click();
  await expect(page.getByText('ZIP code is not a known US ZIP code')).toBeVisible();
  expect(requests.some((u) => u.endsWith('/trpc/jobs.requestQuote'))).toBe(true);

  await page.getByRole('textbox', { name: 'ZIP code', exact: true }).fill('78701');
  await page.getByRole('button', { name: 'Request my quote' }).click();
  const received = page.getByTestId('quote-received');
  await expect(received).toBeInViewport();
  await expect(received).toBeFocused();
  await expect(received).toContainText('says by when an installer will answer');
  await page.screenshot({ path: test.info().outputPath('quote-received-390.png') });
  await waitForMail(email, /received your installation request/);

  // All of it without the app: only the page's own scripts, within the budget.
  expect(await appStarted(page)).toBe(false);
  const own = [...html.matchAll(/<(?:script|link rel="modulepreload")[^>]*(?:src|href)="([^"]+\.js)"/g)].map(
    (m) => m[1],
  );
  expect(atLoad.map((s) => s.path).filter((s) => !own.includes(s))).toEqual([]);
  expect(totalKB(atLoad)).toBeLessThanOrEqual(30);
});

test('/quote shows what the React page shows', async ({ page }) => {
  await page.goto('/quote');
  const light = await mainText(page);
  // The same page drawn by the app (reached inside it, from another page).
  await page.goto('/resources');
  await page.getByTestId('calculator-quote-link').click();
  await expect(page).toHaveURL(/\/quote$/);
  await expect(page.getByRole('heading', { name: 'Get an installation quote' })).toBeVisible();
  expect(await mainText(page)).toBe(light);
});

test('/quote/<token> fills in the status with its own script; the installation question boots the app from the same click', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const link = await requestQuote(page, uniqueEmail('light-status'));
  const scripts = scriptsDownloaded(page);
  const requests = dataRequests(page);
  const res = await page.goto(link);
  const token = new URL(link).pathname.split('/').pop()!;
  // The page is the same for every token: nothing private in it.
  expect(await res!.text()).not.toContain(token);
  expect(res!.headers()['referrer-policy']).toBe('no-referrer');
  expect(res!.headers()['cache-control']).toBe('no-cache');
  // Whether an installer covers Austin in this run's data or not, the page says which, as the app does.
  await expect(page.getByTestId('installation-status')).toContainText(
    /^(Finding an installer|Waiting for an installer) · Austin, TX 78701$/,
  );
  await expect(page.getByTestId('status-next')).toContainText(
    /An installer near you will answer by|No installer near you/,
  );
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('installation-light-390.png'), fullPage: true });
  expect(await appStarted(page)).toBe(false);
  expect(totalKB(scripts)).toBeLessThanOrEqual(30);
  expect(res!.headers().link).toMatch(/^<\/trpc\/jobs\.statusPage\?input=[^>]+>; rel=preload; as=fetch; crossorigin$/);
  expect(requests).toEqual(['/trpc/jobs.statusPage']);
  // Asked for by the preload (the header's link), not first by the script's fetch.
  const initiators = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname === '/trpc/jobs.statusPage')
      .map((e) => (e as PerformanceResourceTiming).initiatorType),
  );
  expect(initiators).toEqual(['link']);
  const light = await mainText(page);

  // The app (sent to a browser with a session cookie) shows the same.
  await context.addCookies([{ name: 'dn.sid', value: 'not-a-session', url: new URL(link).origin }]);
  await page.goto(link);
  await expect.poll(() => appStarted(page)).toBe(true);
  await expect(page.getByTestId('installation-status')).toBeVisible();
  expect(await mainText(page)).toBe(light);
});

test('/application/<token> fills in the status with its own script; Book a Call boots the app and opens its dialog', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const email = uniqueEmail('light-application');
  await applyAsDealer(page.request, email, { fullName: 'Lux Light' });
  const link = linkIn(await waitForMail(email, /Application received/), '/application/');
  // The applicant opens the link from the email, in a browser not signed in.
  await context.clearCookies();
  const scripts = scriptsDownloaded(page);
  const requests = dataRequests(page);
  const res = await page.goto(link);
  expect(await res!.text()).not.toContain(new URL(link).pathname.split('/').pop()!);
  expect(res!.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByTestId('application-stage')).toHaveText('Received');
  await expect(page.getByRole('heading', { name: 'Your dealer application' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('application-light-390.png'), fullPage: true });
  expect(await appStarted(page)).toBe(false);
  expect(totalKB(scripts)).toBeLessThanOrEqual(30);
  expect(requests).toEqual(['/trpc/site.applicationStatus']);
  const light = await mainText(page);

  await page.getByRole('button', { name: 'Book a Call' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await appStarted(page)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await mainText(page)).toBe(light);

  // An unknown link: the same "not found" as the app's.
  await page.goto('/application/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByTestId('status-not-found')).toBeVisible();
  expect(await appStarted(page)).toBe(false);
});
