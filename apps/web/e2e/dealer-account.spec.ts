import { expect, request as playwrightRequest, test } from '@playwright/test';
import { approvedDealer } from './support/accounts';
import { seriousViolations } from './support/axe';

// Issue 15: a dealer edits the profile and changes the password; the other browser's session ends.

test('a dealer edits the profile and changes the password; the other browser is signed out', async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  const dealer = await approvedDealer(page.request, admin, { fullName: 'Paula Profile', companyName: 'Old Attic Co' });
  await admin.dispose();

  // A second browser signs in as the same dealer.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  const login = await other.request.post('/api/dealer/login', {
    data: { username: dealer.email, password: dealer.password },
  });
  expect(login.ok()).toBe(true);
  await other.goto('/dashboard');
  await expect(other.getByRole('heading', { name: 'Dealer Dashboard' })).toBeVisible();

  await page.goto('/dashboard');
  const profile = page.getByRole('region', { name: 'Your profile' });
  const security = page.getByRole('region', { name: /Security/ });
  await expect(profile.getByLabel('Company name')).toHaveValue('Old Attic Co');
  // The footer follows the session: Dashboard and Sign Out, no Sign In or Admin.
  const footer = page.getByRole('navigation', { name: 'Footer' });
  await expect(footer.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  await expect(footer.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  // axe on the new cards: profile, security, earnings.
  await expect(page.getByTestId('earnings').getByRole('heading', { name: 'Your Earnings' })).toBeVisible();
  await expect(security.getByRole('row')).toHaveCount(3); // header + two sessions
  for (const selector of [
    'section[aria-labelledby="profile-title"]',
    'section[aria-labelledby="security-title"]',
    '[data-testid="earnings"]',
  ]) {
    expect(await seriousViolations(page, selector), selector).toEqual([]);
  }
  // Each session is named by its device, not "Unknown device".
  await expect(security.getByText('Unknown device')).toHaveCount(0);
  await expect(security.getByText(/Chrome on (Windows|Linux)/).first()).toBeVisible();

  // Profile: a new company name and phone, saved and still there after a reload.
  await profile.getByLabel('Company name').fill('New Attic Co');
  await profile.getByLabel('Phone').fill('(512) 555-0142');
  // Issue 35: the dealer leaves the public referral picker (test/security/typeahead.both checks the search).
  const inPicker = profile.getByLabel('Applicants can find me in the referral picker');
  await expect(inPicker).toBeChecked();
  await inPicker.uncheck();
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Profile saved' })).toBeVisible();
  await page.reload();
  const saved = page.getByRole('region', { name: 'Your profile' });
  await expect(saved.getByLabel('Company name')).toHaveValue('New Attic Co');
  await expect(saved.getByLabel('Applicants can find me in the referral picker')).not.toBeChecked();

  // Password: the wrong current one is refused; the right one changes it and ends the other session.
  const sec = page.getByRole('region', { name: /Security/ });
  await sec.getByLabel('Current password').fill('not-my-password');
  await sec.getByLabel('New password').fill('brand-new-pass-2');
  await sec.getByRole('button', { name: 'Change password' }).click();
  await expect(sec.getByText('Current password is incorrect')).toBeVisible();
  await sec.getByLabel('Current password').fill(dealer.password);
  await sec.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Password changed' })).toBeVisible();
  await expect(sec.getByRole('row')).toHaveCount(2); // header + this browser

  // The other browser is signed out: its next load shows the signed-out dashboard.
  await other.reload();
  await expect(other.getByRole('link', { name: 'Go to Login' })).toBeVisible();
  await otherContext.close();

  // The new password signs in; the old one does not.
  const fresh = await playwrightRequest.newContext({ baseURL });
  expect(
    (await fresh.post('/api/dealer/login', { data: { username: dealer.email, password: dealer.password } })).status(),
  ).toBe(401);
  expect(
    (await fresh.post('/api/dealer/login', { data: { username: dealer.email, password: 'brand-new-pass-2' } })).ok(),
  ).toBe(true);
  await fresh.dispose();
});
