import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe';

// Issue 36: Esc or the ✕ on a half-filled application asks first, and the answers survive a reload
// (this browser) until the application is submitted or discarded.

test('Esc on a half-filled wizard asks; the draft survives a reload; Discard starts over', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dealer Application' });
  const wizard = page.getByTestId('registration-wizard');
  const title = wizard.getByTestId('wizard-step-title');
  // Nothing typed: Esc closes at once (once the app has taken over and the dialog is there).
  await expect(wizard).toBeVisible();
  await expect(page.getByTestId('app-loading')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Enroll Now' }).click();
  await wizard.getByTestId('tier-Authorized').click();
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(title).toHaveText('Basic Information');
  await page.getByLabel('Full name').fill('Drafty Dana');
  await page.getByLabel('Company name').fill('Draft Attic Co');

  // Esc asks; Keep editing keeps everything as it was.
  await page.keyboard.press('Escape');
  const ask = page.getByTestId('wizard-leave');
  await expect(ask).toContainText('Leave your application?');
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByLabel('Full name')).toHaveValue('Drafty Dana');

  // The ✕ has a name, and asks too; closing keeps the answers, also across a reload.
  await dialog.getByRole('button', { name: 'Close the application' }).click();
  await ask.getByRole('button', { name: 'Close and keep my answers' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  await expect(page.getByTestId('wizard-draft-restored')).toBeVisible();
  await expect(title).toHaveText('Basic Information');
  await expect(page.getByLabel('Full name')).toHaveValue('Drafty Dana');
  await expect(page.getByLabel('Company name')).toHaveValue('Draft Attic Co');
  await wizard.getByRole('button', { name: 'Previous' }).click();
  await expect(wizard.getByTestId('tier-Authorized')).toBeChecked();

  // Discard forgets them: the next wizard starts empty at step 1.
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Discard my answers' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  await expect(title).toHaveText('Dealer Tier');
  await expect(page.getByTestId('wizard-draft-restored')).toHaveCount(0);
});
