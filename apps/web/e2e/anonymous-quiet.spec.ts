import { expect, type Page, test } from '@playwright/test';

/**
 * Issue 47: a visitor's pages log no console error. Asking who is signed in used to answer 401
 * (GET /api/auth/user, kept for scripts), which every browser logs as an error on every page.
 */
const PAGES = ['/', '/quote', '/login', '/register', '/about', '/resources', '/admin/login', '/dashboard'];

function listen(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`a visitor's pages log no console error and no failed request (${size.width} px)`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ viewport: size, baseURL });
    const page = await context.newPage();
    const errors = listen(page);
    for (const path of PAGES) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      // The dashboard asks a visitor to sign in, without an error on the way.
      if (path === '/dashboard') await expect(page.getByText('Sign in to see your dealer dashboard.')).toBeVisible();
      expect(errors, path).toEqual([]);
    }
    // The landing page boots the app when a visitor goes on from it: still quiet.
    await page.goto('/');
    await page.getByTestId('hero-quote-link').click();
    await expect(page).toHaveURL(/\/quote$/);
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    await context.close();
  });
}
