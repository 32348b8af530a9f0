import { expect, type Page } from '@playwright/test';
import { ADMIN } from '../global-setup';

/** A section's link in the admin console's navigation (issue 34): the side bar, or the drawer on a phone. */
export const adminSection = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name, exact: true });

/** Signs an admin in through the login page (the e2e admin's password unless given). */
export async function signInAs(page: Page, username: string, password = ADMIN.password) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}
