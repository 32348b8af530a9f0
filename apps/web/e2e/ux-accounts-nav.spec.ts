import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, approveAsAdmin, approvedDealer, uniqueEmail } from './support/accounts';
import { seriousViolations } from './support/axe';
import { linkIn, waitForMail } from './support/mail';

/** Issue 36: links to About and Resources, dead set-password links, the invitation page, ended sessions. */

test('a used set-password link offers a fresh link at once, without asking for a password', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('usedlink');
  await applyAsDealer(page.request, email, { fullName: 'Uma Used' });
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    await approveAsAdmin(admin, email);
  } finally {
    await admin.dispose();
  }
  const link = linkIn(await waitForMail(email, /approved/), '/login');
  // The link is used (in another browser).
  const other = await playwrightRequest.newContext({ baseURL });
  try {
    const token = new URL(link).searchParams.get('token');
    const used = await other.post('/api/dealer/setup-password', { data: { token, password: 'used-link-pass-1' } });
    expect(used.ok()).toBe(true);
  } finally {
    await other.dispose();
  }

  await page.goto(link);
  await expect(page.getByRole('button', { name: 'Email me a fresh link' })).toBeVisible();
  await expect(page.getByText('The magic link has expired or has already been used.')).toBeVisible();
  // Nothing to type a password into, and no Set Password button.
  await expect(page.locator('input[type="password"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Set Password' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Email me a fresh link' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/email/i).fill(email);
  await dialog.getByRole('button', { name: /send/i }).click();
  await expect(page.getByText('Password reset link sent')).toBeVisible();
  await waitForMail(email, /reset/i);
});

test('a live set-password link still shows the form after its check', async ({ page, baseURL }) => {
  const email = uniqueEmail('livelink');
  await applyAsDealer(page.request, email, { fullName: 'Liv Live' });
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    await approveAsAdmin(admin, email);
  } finally {
    await admin.dispose();
  }
  await page.goto(linkIn(await waitForMail(email, /approved/), '/login'));
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
  // Only the set-up tab for ?token= (moved here from account-login.spec.ts: it needs a live link).
  await expect(page.getByRole('tab')).toHaveCount(1);
  await expect(page.getByRole('tab', { name: 'Set Up Password' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Email me a fresh link' })).toHaveCount(0);
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`About and Resources are reachable by clicking from the landing page (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const openMenu = async () => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      return page.getByTestId('mobile-menu');
    };
    const phone = viewport.width < 768;

    for (const [name, heading] of [
      ['About', 'About Our Products'],
      ['Resources', 'Dealer Resources'],
    ] as const) {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Enroll Now' })).toBeVisible();
      if (phone) await (await openMenu()).getByRole('link', { name, exact: true }).click();
      else await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/${name.toLowerCase()}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
    // The savings calculator is on Resources.
    await expect(page.locator('#savings-title')).toBeVisible();

    // The footer links both, on the landing too.
    await page.goto('/');
    const footer = page.getByRole('navigation', { name: 'Footer' });
    await footer.getByRole('link', { name: 'About', exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Resources', exact: true })
      .click();
    await expect(page).toHaveURL(/\/resources$/);
  });
}

test('the invitation page answers 200, names the email and role, asks twice, passes axe, and welcomes', async ({
  browser,
  baseURL,
}) => {
  const email = uniqueEmail('invitee');
  const owner = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await owner.post('/api/admin/login', { data: ADMIN })).ok()).toBe(true);
    const invite = await owner.post('/api/admin/team/invitations', { data: { email, role: 'reviewer' } });
    expect(invite.ok()).toBe(true);
  } finally {
    await owner.dispose();
  }
  const link = linkIn(await waitForMail(email, /invited/), '/admin/accept-invite');

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  const summary = page.getByTestId('invitation-summary');
  await expect(summary).toContainText(email);
  await expect(summary).toContainText('as a reviewer');
  await expect(page.getByText('At least 8 characters; common passwords are refused.')).toBeVisible();
  await expect(page.getByLabel('Confirm password')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Full name').fill('Rae Reviewer');
  await page.getByLabel('Password', { exact: true }).fill('reviewer-pass-36');
  await page.getByLabel('Confirm password').fill('reviewer-pass-37');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('Confirm password').fill('reviewer-pass-36');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText('Welcome to the admin team, Rae Reviewer!')).toBeVisible();

  // Used now: the page says so at once.
  await page.goto(link);
  await expect(page.getByText('This invitation no longer works')).toBeVisible();
  await expect(page.locator('input[type="password"]')).toHaveCount(0);
  await context.close();
});

test("a session ended by a password change elsewhere says so; a dealer's first dashboard visit says Welcome", async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  let dealer: Awaited<ReturnType<typeof approvedDealer>>;
  try {
    dealer = await approvedDealer(page.request, admin);
  } finally {
    await admin.dispose();
  }
  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-welcome')).toHaveText(/^Welcome, /);
  await page.reload();
  await expect(page.getByTestId('dashboard-welcome')).toHaveText(/^Welcome back, /);

  // The phone menu offers the dashboard, not the wizard again.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(menu.getByRole('link', { name: 'Become a Dealer' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Another browser changes the password.
  const elsewhere = await browser.newContext({ baseURL });
  try {
    const login = await elsewhere.request.post('/api/dealer/login', {
      data: { username: dealer!.email, password: dealer!.password },
    });
    expect(login.ok()).toBe(true);
    const change = await elsewhere.request.post('/api/dealer/password', {
      data: { currentPassword: dealer!.password, newPassword: 'changed-elsewhere-1' },
    });
    expect(change.ok()).toBe(true);
  } finally {
    await elsewhere.close();
  }
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await expect(page.getByTestId('session-ended')).toContainText('the password of this account was changed');
});
