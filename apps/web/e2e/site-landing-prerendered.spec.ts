import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { appStarted } from './support/site';

/**
 * `/` is the landing prerendered at build time with one small script; the app boots only when
 * the visitor does something that needs it, and that first click does it
 * (docs/decisions/0503-prerendered-landing.md).
 */

/** Scripts the page ran (prefetches into the cache are not scripts). */
function scriptsRun(page: Page) {
  const urls: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') urls.push(new URL(r.url()).pathname);
  });
  return urls;
}

test('the first paint is the prerendered landing, and no app code runs without an interaction', async ({ page }) => {
  const scripts = scriptsRun(page);
  const res = await page.goto('/');
  const html = await res!.text();
  // The markup arrives in the page itself, with its CSS inlined.
  expect(html).toContain('Grow your business with insulation blankets and solar attic fans');
  expect(html).toContain('data-testid="tier-card-Preferred"');
  expect(html).toMatch(/<style data-critical>/);
  expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
  expect(html.match(/<script\b[^>]*>/g)).toHaveLength(1);

  await expect(page.getByRole('button', { name: 'Enroll Now' })).toBeVisible();
  await page.waitForLoadState('load');
  // Nothing more is fetched for a visitor who only reads; the first move prefetches the app's
  // files into the cache, without running them.
  const prefetched = () => page.evaluate(() => document.querySelectorAll('link[rel="prefetch"]').length);
  await page.waitForTimeout(500);
  expect(await prefetched()).toBe(0);
  await page.mouse.move(200, 300);
  await expect.poll(prefetched).toBeGreaterThan(0);
  await page.waitForTimeout(500);
  expect(await appStarted(page)).toBe(false);
  // Only the page's script and the modules it preloads ran.
  const own = [...html.matchAll(/<(?:script|link rel="modulepreload")[^>]*(?:src|href)="([^"]+\.js)"/g)].map(
    (m) => m[1],
  );
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => !own.includes(s))).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('app-version'))).toBe('1.7.98');

  // Section links scroll without the app.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dealer Program' }).click();
  await expect(page.getByRole('heading', { name: 'Dealer Program' })).toBeInViewport();
  await page.getByRole('button', { name: 'Watch Demo' }).click();
  await expect(page.getByRole('heading', { name: 'Full Product Demo' })).toBeInViewport();
  expect(await appStarted(page)).toBe(false);
});

test('the app renders the same page when it takes over', async ({ page }, testInfo) => {
  await page.goto('/');
  await page.waitForLoadState('load');
  const before = await page.screenshot({ fullPage: true, path: testInfo.outputPath('prerendered.png') });
  // The logo links to /: the app boots and renders the landing it replaces.
  await page.getByRole('link', { name: 'Dealer Network home' }).click();
  await expect.poll(() => appStarted(page)).toBe(true);
  await expect(page.locator('style[data-critical]')).toHaveCount(0);
  await page.mouse.move(0, 0);
  const after = await page.screenshot({ fullPage: true, path: testInfo.outputPath('app.png') });
  expect(after.equals(before), 'the two screenshots in the output folder differ').toBe(true);
});

test('Enroll Now on the prerendered page opens the wizard with one click; Enroll Directly too, where it is', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  await expect(page.getByRole('dialog', { name: 'Dealer Application' })).toBeVisible();
  await expect(page.getByTestId('registration-wizard')).toBeVisible();

  await page.goto('/');
  const cta = page.getByRole('button', { name: 'Enroll Directly' });
  await cta.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);
  await cta.click();
  await expect(page.getByRole('dialog', { name: 'Dealer Application' })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test('Schedule Call and Schedule a Call open the call dialog with one click', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Schedule Call' }).click();
  await expect(page.getByRole('dialog', { name: /Schedule a Call/ })).toBeVisible();

  await page.goto('/');
  await page.getByRole('button', { name: 'Schedule a Call' }).click();
  await expect(page.getByRole('dialog', { name: /Schedule a Call/ })).toBeVisible();
});

test('on a phone the menu opens with one tap; Dealer Login goes to /login in the app, and back shows the landing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link', { name: 'Admin Login' })).toBeVisible();
  await menu.getByRole('link', { name: 'Dealer Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Enroll Now' })).toBeVisible();
  expect(await appStarted(page)).toBe(true);
});

test('a link on the prerendered page navigates in the app, with one click', async ({ page }) => {
  await page.goto('/');
  const navigations: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) navigations.push(f.url());
  });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dealer Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  // A client-side navigation: no new document was loaded.
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  expect(
    await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).name),
  ).toMatch(/\/$/);
});

test('a signed-in user at / is redirected, also when the landing page reached them', async ({
  page,
  playwright,
  baseURL,
}) => {
  const login = await page.request.post('/api/admin/login', { data: ADMIN });
  expect(login.ok()).toBe(true);
  // With the session cookie the server sends the app, which redirects (SPEC section 2).
  const res = await page.goto('/');
  expect(await res?.text()).not.toContain('data-critical');
  await expect(page).toHaveURL(/\/admin$/);

  // The prerendered page itself (as a cache that ignored Vary might hand it over): its script redirects.
  const visitor = await playwright.request.newContext({ baseURL: baseURL! });
  const landing = await visitor.get('/');
  const body = await landing.text();
  expect(body).toContain('data-critical');
  await visitor.dispose();
  await page.route(
    (url) => url.pathname === '/',
    (route) => route.fulfill({ status: 200, headers: landing.headers(), body }),
  );
  await page.goto('/');
  await expect(page).toHaveURL(/\/admin$/);
});

test('?r= on the prerendered page reports the capture once, also after the app boots', async ({ page, context }) => {
  const events: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/affiliate/track-event')) events.push(JSON.parse(r.postData() ?? '{}').eventType);
  });
  await page.goto('/?r=landing_ref1');
  await expect.poll(() => events.length).toBe(2);
  expect((await context.cookies()).find((c) => c.name === 'recruiter_id')?.value).toBe('landing_ref1');
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  await expect(page.getByRole('dialog', { name: 'Dealer Application' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(events.sort()).toEqual(['cookie_set', 'url_capture']);
});
