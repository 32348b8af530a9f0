import { expect, request as playwrightRequest, test } from '@playwright/test';
import { approvedDealer } from './support/accounts';

const FORM = 'https://docs.google.com/forms/d/e/e2e-first-order/viewform';

test('the first-order card follows the spec rules for an Affiliate dealer', async ({ page, baseURL }) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  await approvedDealer(page.request, admin, { fullName: 'Fiona Form' });
  const setForm = async (formUrl: string, isRequired: boolean) => {
    const res = await admin.put('/api/admin/first-order-forms/Affiliate', { data: { formUrl, isRequired } });
    expect(res.ok(), await res.text()).toBe(true);
  };

  // Configured but optional: an Affiliate sees no card.
  await setForm(FORM, false);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dealer Information' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'First Order Form' })).toHaveCount(0);

  // Required and configured: the embedded form (600 px) and a new-tab link without the embedded flag.
  await setForm(FORM, true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'First Order Form' })).toBeVisible();
  const frame = page.locator('iframe[title="First order form"]');
  await expect(frame).toHaveAttribute('height', '600');
  await expect(frame).toHaveAttribute('src', `${FORM}?embedded=true`);
  const open = page.getByRole('link', { name: 'Open in a new tab' });
  await expect(open).toHaveAttribute('href', FORM);
  await expect(open).toHaveAttribute('target', '_blank');

  // Required without a URL: still nothing for an Affiliate.
  await setForm('', true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dealer Information' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'First Order Form' })).toHaveCount(0);
  await admin.dispose();
});
