import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, approveAsAdmin, uniqueEmail } from './support/accounts';
import { linkIn, waitForMail } from './support/mail';

test('the error query values show the spec messages', async ({ page }) => {
  const cases = {
    'invalid-magic-link': 'The magic link is invalid or malformed.',
    'expired-magic-link': 'The magic link has expired or has already been used.',
    'magic-link-error': 'There was an error processing your magic link. Please contact support.',
    whatever: 'An error occurred. Please try again.',
  };
  for (const [code, message] of Object.entries(cases)) {
    await page.goto(`/login?error=${code}`);
    await expect(page.getByRole('alert')).toContainText(message);
    await expect(page.getByRole('button', { name: 'Email me a fresh link' })).toHaveCount(
      code.endsWith('magic-link') && code !== 'magic-link-error' ? 1 : 0,
    );
  }
});

test('tabs: sign in by default, registration for ?tab=dealer or ?r=, only set-up for ?token=', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Dealer Registration' })).toBeVisible();
  await page.goto('/login?tab=dealer');
  await expect(page.getByRole('tab', { name: 'Dealer Registration' })).toHaveAttribute('aria-selected', 'true');
  await page.goto('/login?r=someone');
  await expect(page.getByRole('tab', { name: 'Dealer Registration' })).toHaveAttribute('aria-selected', 'true');
  // Only set-up for a live ?token=: e2e/ux-accounts-nav.spec.ts (it needs a real link). Issue 36:
  // the link is checked when the page opens, so an unknown one is refused at once, like a malformed one.
  await page.goto(`/login?token=${'A'.repeat(43)}`);
  await expect(page).toHaveURL(/error=invalid-magic-link/);
  await expect(page.getByRole('alert')).toContainText('The magic link is invalid or malformed.');
  await page.goto('/login?token=short');
  await expect(page).toHaveURL(/error=invalid-magic-link/);
  await expect(page.getByRole('alert')).toContainText('The magic link is invalid or malformed.');
});

test('sign-in failures use the spec words', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'The username or password you entered is incorrect. Please check your credentials and try again.',
  );
});

test('a pending dealer is told the application is under review', async ({ page, baseURL }) => {
  // A pending dealer has no password; so approve, set one by email, then move back to pending.
  const email = uniqueEmail('pending');
  await applyAsDealer(page.request, email);
  const admin = await playwrightRequest.newContext({ baseURL });
  const id = await approveAsAdmin(admin, email);
  const link = linkIn(await waitForMail(email, /approved/), '/login');
  const token = new URL(link).searchParams.get('token');
  const set = await page.request.post('/api/dealer/setup-password', { data: { token, password: 'pending-pass' } });
  expect(set.ok()).toBe(true);
  await page.context().clearCookies();
  const back = await admin.post(`/api/admin/dealers/${id}/status`, { data: { status: 'pending' } });
  expect(back.ok()).toBe(true);
  await admin.dispose();

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('pending-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText('Your application is still under review.');
});

test('forgot password: form, confirmation with Close and Send another email, and the emailed link works', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('forgot');
  await applyAsDealer(page.request, email, { fullName: 'Fran Forgot' });
  const admin = await playwrightRequest.newContext({ baseURL });
  await approveAsAdmin(admin, email);
  await admin.dispose();
  // The approval link expired: the page offers a fresh one, which (no password yet) is a new set-up link.
  await page.goto('/login?error=expired-magic-link');
  await page.getByRole('button', { name: 'Email me a fresh link' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Send reset link' }).click();
  await expect(dialog.getByText('Valid email is required')).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset link sent')).toBeVisible();
  await expect(dialog.getByText(`If an account exists for ${email}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Send another email' }).click();
  await expect(dialog.getByLabel('Email')).toBeVisible();
  await page.keyboard.press('Escape');

  const mail = await waitForMail(email, /new link to set up/);
  await page.goto(linkIn(mail, '/login'));
  await page.getByLabel('New password', { exact: true }).fill('fran-pass-1');
  await page.getByLabel('Confirm password').fill('fran-pass-1');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Signed out, a reset link for a dealer with a password; the confirmation closes.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('dialog').getByLabel('Email').fill(email);
  await page.getByRole('dialog').getByRole('button', { name: 'Send reset link' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const reset = await waitForMail(email, /Reset your dealer account password/);
  expect(reset.text).toContain('expires in 1 hour');
  await page.goto(linkIn(reset, '/login'));
  await page.getByLabel('New password', { exact: true }).fill('fran-pass-2');
  await page.getByLabel('Confirm password').fill('fran-pass-2');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Welcome, Fran Forgot!')).toBeVisible();
});

test('dashboard signed out shows Welcome and Go to Login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('admin login: missing fields, Login Failed toast, dealer login link, success goes to /admin', async ({ page }) => {
  await page.goto('/admin/login');
  await expect(page.getByRole('heading', { name: 'Admin Portal' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dealer login' })).toHaveAttribute('href', '/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Please fill in all fields').first()).toBeVisible();
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login Failed')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});
