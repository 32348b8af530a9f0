import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { adminSection } from './support/admin';
import { linkIn, waitForMail } from './support/mail';
import { sql } from './support/site';
import { limit } from './support/time';

// Admins with roles (issue 14): an owner invites a viewer by email; the viewer sets a password
// from the link, is signed in, finds no mutation control, and a direct mutation is refused.

async function signInOwner(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

test('an owner invites a viewer, who signs up from the email and can change nothing', async ({
  page,
  browser,
  baseURL,
}) => {
  // Several pages and two sessions on a shared, loaded machine.
  test.setTimeout(limit(240_000));
  const tag = Date.now().toString(36);
  const email = `viewer.${tag}@example.com`;
  const [dealer] = await sql<{ id: string }>(
    `insert into dealers (email, full_name, company_name, tier, status, phone_e164, address_json, updated_at)
     values ($1, $2, 'Role Co', 'Affiliate', 'pending', '+15551234567',
       '{"street":"1 Main St","city":"Austin","state":"TX","zipCode":"78701","country":"US"}'::jsonb, now())
     returning id::text as id`,
    [`roles.${tag}@example.com`, `Role Pending ${tag}`],
  );

  await signInOwner(page);
  await page.goto('/admin?tab=team');
  await page.getByLabel('Invite by email').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  await expect(page.getByText(`${email} as viewer`)).toBeVisible();

  const mail = await waitForMail(email, /invited/);
  const link = linkIn(mail, '/admin/accept-invite');

  const context = await browser.newContext({ baseURL });
  const viewer = await context.newPage();
  await viewer.goto(link);
  await viewer.getByLabel('Full name').fill('Vera Viewer');
  await viewer.getByRole('textbox', { name: 'Password', exact: true }).fill('viewer-password-1');
  await viewer.getByRole('textbox', { name: 'Confirm password' }).fill('viewer-password-1');
  await viewer.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(viewer).toHaveURL(/\/admin$/);

  // Dealers: the row is there, its decisions are not.
  await viewer.goto(`/admin?q=${encodeURIComponent(`Role Pending ${tag}`)}`);
  await expect(viewer.getByText(`Role Pending ${tag}`)).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'History' })).toBeVisible();
  for (const name of [
    'Approve',
    'Reject',
    'Grant Access',
    'Link Referral',
    'Record order',
    'Clear All',
    'Export CSV',
  ]) {
    await expect(viewer.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(viewer.getByRole('combobox', { name: `Status of Role Pending ${tag}` })).toBeDisabled();
  await expect(adminSection(viewer, 'Team')).toHaveCount(0);
  await expect(adminSection(viewer, 'Activity')).toBeVisible();

  await adminSection(viewer, 'Calls').click();
  await expect(viewer.getByRole('button', { name: 'Mark Completed' })).toHaveCount(0);
  // First order forms and landing videos are the Content section.
  await adminSection(viewer, 'Content').click();
  await expect(viewer.getByRole('button', { name: 'Update' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await adminSection(viewer, 'Orders & commissions').click();
  await expect(viewer.getByRole('button', { name: /Approve selected/ })).toHaveCount(0);
  await adminSection(viewer, 'Payouts').click();
  await expect(viewer.getByRole('button', { name: 'Create payout batch' })).toHaveCount(0);

  // The server refuses whatever the page shows.
  const res = await viewer.request.post(`/api/admin/dealers/${dealer!.id}/approve`, {
    headers: { origin: baseURL!, 'content-type': 'application/json' },
    data: {},
  });
  expect(res.status()).toBe(403);
  const [row] = await sql<{ status: string }>('select status from dealers where id = $1', [dealer!.id]);
  expect(row!.status).toBe('pending');
  // Claims and incentives: read-only for a viewer (issue 37).
  await adminSection(viewer, 'Claims & incentives').click();
  await expect(viewer.getByTestId('claims-owners-only')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Add claim or incentive' })).toHaveCount(0);
  await context.close();

  // The owner removes the viewer with the app's dialog (issue 36): Cancel keeps them, Remove removes.
  let nativeDialogs = 0;
  page.on('dialog', (d) => {
    nativeDialogs++;
    void d.dismiss();
  });
  await page.goto('/admin/team');
  const vera = page.getByTestId('team-row').filter({ hasText: email });
  await vera.getByRole('button', { name: 'Remove' }).click();
  const ask = page.getByRole('dialog', { name: 'Remove admin' });
  await expect(ask).toContainText(`Remove ${email}? Their sessions end at once.`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(vera).toBeVisible();
  await vera.getByRole('button', { name: 'Remove' }).click();
  await ask.getByRole('button', { name: 'Remove' }).click();
  await expect(vera).toHaveCount(0);
  expect(nativeDialogs).toBe(0);
});

// Issue 35, finding 7: an owner revokes a pending invitation from the Team tab; its link then fails.
test('an owner revokes a pending invitation and its emailed link stops working', async ({ page, baseURL }) => {
  const email = `revoked.${Date.now().toString(36)}@example.com`;
  await signInOwner(page);
  await page.goto('/admin?tab=team');
  await page.getByLabel('Invite by email').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`${email} as viewer, invited by ${ADMIN.username}`)).toBeVisible();
  const token = new URL(linkIn(await waitForMail(email, /invited/), '/admin/accept-invite')).searchParams.get('token');

  // The app's dialog asks (issue 36), never the browser's confirm().
  page.on('dialog', () => {
    throw new Error('window.confirm() is not used');
  });
  await page.getByRole('button', { name: `Revoke the invitation of ${email}` }).click();
  await page.getByRole('dialog', { name: 'Revoke invitation' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Invitation revoked')).toBeVisible();
  await expect(page.getByText(`${email} as viewer`)).toHaveCount(0);

  const accept = await page.request.post('/api/auth/accept-invite', {
    headers: { origin: baseURL!, 'content-type': 'application/json' },
    data: { token, fullName: 'Too Late', password: 'too-late-pass-1' },
  });
  expect(accept.status()).toBe(410);
  const [row] = await sql<{ n: string }>('select count(*)::text as n from admins where username = $1', [email]);
  expect(row!.n).toBe('0');
});
