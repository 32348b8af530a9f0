import { expect, test } from '@playwright/test';

test('the landing page loads from the production build', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an unknown path shows the 404 page', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('client routes can be reloaded', async ({ page }) => {
  for (const path of ['/login', '/admin', '/dashboard']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
  }
});
