import { expect, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import { limit } from './time';

/** Runs SQL against the e2e server's database (E2E_DATABASE_URL from global-setup). */
export async function sql<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Picks an option of a Mantine Select by its label. */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

/**
 * Types into a searchable Mantine Select and picks `option` (its label, exact) from the list it
 * filters. On a busy machine the list can close between finding the option and clicking it (the
 * click scrolled the page while the list was still moving in): the option then stays in the page,
 * hidden, and a plain click waits on it until the test's limit (CI, stop 53). So: click, and if the
 * list has closed, type again to open it; done when the field shows the option.
 */
export async function typeAndPick(combobox: Locator, typed: string, option: string) {
  const choice = combobox.page().getByRole('option', { name: option, exact: true });
  await expect(async () => {
    if (!(await choice.isVisible())) await combobox.fill(typed);
    await choice.click({ timeout: limit(5_000) });
    await expect(combobox).toHaveValue(option, { timeout: limit(2_000) });
  }).toPass();
}

/**
 * The element's box fits across a `width` px screen and is at least `minHeight` tall: polled, since
 * a box read while the element is redrawn (the app taking over a light page, a card loading in) is
 * null (CI under load, stop 53).
 */
export async function expectFits(element: Locator, width: number, minHeight = 0) {
  await expect
    .poll(async () => {
      const box = await element.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= width && box.height >= minHeight;
    })
    .toBe(true);
}

export type Tier = 'Affiliate' | 'Authorized' | 'Preferred';

/** Steps 2-6 of the wizard with valid answers, ending on the review step. */
export async function fillWizard(
  page: Page,
  tier: Tier,
  email: string,
  opts: { picker?: boolean; referrer?: { type: string; option: string } } = {},
) {
  const dialog = page.getByTestId('registration-wizard');
  const next = dialog.getByRole('button', { name: 'Next' });
  const title = dialog.getByTestId('wizard-step-title');
  await dialog.getByTestId(`tier-${tier}`).click();
  await next.click();
  await page.getByLabel('Full name').fill(`E2E ${tier} Applicant`);
  await page.getByLabel('Company name').fill(`${tier} Attic Co`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill('(512) 555-0199');
  await page.getByLabel('Street address').fill('12 Oak Ave');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('State').fill('TX');
  await page.getByLabel('ZIP code').fill('78701');
  if (opts.referrer) {
    const picker = page.getByRole('combobox', { name: /How were you referred/ });
    await picker.click();
    await picker.pressSequentially(opts.referrer.type, { delay: 60 });
    await page.getByRole('option', { name: opts.referrer.option }).click();
  } else if (opts.picker !== false) await choose(page, /How were you referred/, 'No referral');
  await next.click();
  await title.filter({ hasText: 'Business Structure' }).waitFor();
  if (tier !== 'Affiliate') {
    await choose(page, /Business entity type/, 'LLC');
    await page.getByLabel('We have licensed installers').check();
    await page.getByLabel('Installation crews').fill('2');
  }
  await next.click();
  await title.filter({ hasText: 'Sales & Operations' }).waitFor();
  await page.getByLabel('Sales representatives').fill('3');
  await page.getByLabel(/Expected monthly volume/).fill('4000');
  await next.click();
  await title.filter({ hasText: 'Installation & Focus' }).waitFor();
  if (tier === 'Preferred') await page.getByLabel('We handle permitting').check();
  await page.getByLabel('Arctic Blanket and Breeze').check();
  await next.click();
  await title.filter({ hasText: 'Agreements & Documents' }).waitFor();
  await page.getByLabel('I agree to participate in the onboarding call').check();
  await next.click();
  await title.filter({ hasText: 'Review & Submit' }).waitFor();
}

/** Whether the app has rendered into #root (createRoot marks its container); the prerendered landing has not. */
export const appStarted = (page: Page) =>
  page.evaluate(() => Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')));
