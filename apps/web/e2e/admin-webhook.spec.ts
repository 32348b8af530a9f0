import { expect, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { adminSection, signInAs } from './support/admin';
import { signed } from './support/webhook';

// Issue 36 (decision 0995): owners see the orders webhook's URL, whether a secret is set, and its
// newest deliveries with the answer each got.
test('an owner sees the orders webhook: its URL, its secret set but never shown, and the last deliveries', async ({
  page,
}) => {
  const id = `msg_e2e_${Date.now().toString(36)}`;
  const body = JSON.stringify({
    orderId: 'X',
    dealerEmail: 'nobody@example.com',
    amount: '1.00',
    orderedAt: new Date().toISOString(),
  });
  const res = await page.request.post('/api/integrations/orders', { headers: signed(body, id), data: body });
  expect(res.status()).toBe(404);
  await signInAs(page, ADMIN.username);
  await adminSection(page, 'Orders webhook').click();
  await expect(page.getByTestId('webhook-url')).toHaveText(/\/api\/integrations\/orders$/);
  await expect(page.getByTestId('webhook-secret')).toContainText('Secret set');
  const row = page.getByTestId('webhook-delivery').filter({ hasText: id });
  await expect(row).toContainText('404');
  await expect(page.locator('body')).not.toContainText('whsec_');
});
