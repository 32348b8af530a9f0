import { expect, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { signInAs } from './support/admin';

// Personal API tokens (issue 40, decision 0980): an owner creates one in Team, sees it once, a
// script lists dealers with it, and revoking it stops it.

test('an owner creates an API token, shown once, that a script can use until it is revoked', async ({
  page,
  request,
}) => {
  const name = `nightly export ${Date.now().toString(36)}`;
  await signInAs(page, ADMIN.username);
  await page.goto('/admin/team');
  await page.getByLabel('Token name').fill(name);
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByTestId('new-api-token');
  await expect(shown).toHaveText(/^dnp_[A-Za-z0-9_-]{43}$/);
  const token = (await shown.textContent()) ?? '';

  const list = await request.get('/api/admin/dealers', { headers: { authorization: `Bearer ${token}` } });
  expect(list.status()).toBe(200);

  await page.reload();
  const row = page.getByTestId('api-token-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: `Revoke the API token ${name}` }).click();
  await expect(row.getByText('revoked')).toBeVisible();
  const after = await request.get('/api/admin/dealers', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});
