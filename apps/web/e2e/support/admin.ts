import type { Page } from '@playwright/test';

/** A section's link in the admin console's navigation (issue 34): the side bar, or the drawer on a phone. */
export const adminSection = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name, exact: true });
