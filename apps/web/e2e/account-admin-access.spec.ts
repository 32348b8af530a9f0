import { expect, request as playwrightRequest, test } from '@playwright/test';
import { approvedDealer } from './support/accounts';

test('a signed-in dealer opening /admin sees Access Denied', async ({ page, baseURL }) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  await approvedDealer(page.request, admin, { fullName: 'Dana Denied' });
  await admin.dispose();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dealer Information' })).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByText('Access Denied: You need administrator privileges to access this page.')).toBeVisible();
  // The server refuses the admin data whatever the page shows.
  const res = await page.request.get('/api/admin/dealers');
  expect(res.status()).toBe(403);
});
