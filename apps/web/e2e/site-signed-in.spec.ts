import { expect, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { approvedDealer } from './support/accounts';

test('a signed-in admin at / goes to /admin; the top nav welcomes them; the mobile menu is the admin one', async ({
  page,
}) => {
  const login = await page.request.post('/api/admin/login', { data: ADMIN });
  expect(login.ok()).toBe(true);
  await page.goto('/');
  await expect(page).toHaveURL(/\/admin$/);

  await page.goto('/about');
  const nav = page.getByTestId('top-nav');
  await expect(nav.getByTestId('welcome-line')).toHaveText(`Welcome, ${ADMIN.username}`);
  await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible();

  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Public Site' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Admin Login' })).toHaveCount(0);
});

test('a signed-in dealer at / goes to /dashboard; their mobile menu offers Home, Dashboard, Logout (issue 36)', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL: baseURL! });
  try {
    await approvedDealer(page.request, admin);
  } finally {
    await admin.dispose();
  }
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/about');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(menu.getByRole('link', { name: 'Become a Dealer' })).toHaveCount(0);
  await menu.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Enroll Now' })).toBeVisible();
});
