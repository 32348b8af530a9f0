import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { choose } from './support/site';

// Issue 15: the homeowner savings calculator on /resources (docs/decisions/0710-savings-calculator.md).

const amount = (page: Page, id: string) => page.getByTestId(`savings-${id}`).getByTestId('amount');

/** The worked example of decision 0710, figure by figure. */
async function expectWorkedExample(page: Page) {
  await expect(amount(page, 'monthly')).toHaveText('$220.00');
  await expect(amount(page, 'annual')).toHaveText('$2,640.00');
  await expect(amount(page, 'hvac')).toHaveText('$1,584.00');
  await expect(page.getByTestId('savings-hvac')).toContainText('60% of the bill');
  await expect(amount(page, 'first-year')).toHaveText('$396.00 – $792.00');
  await expect(page.getByTestId('savings-first-year')).toContainText('25%–50% savings');
  await expect(amount(page, 'cap')).toHaveText('$792.00');
  await expect(page.getByTestId('savings-cap')).toContainText('Up to 30% cost reduction');
  await expect(amount(page, 'ac-loss')).toHaveText('$110.88');
  await expect(page.getByTestId('savings-ac-loss')).toContainText('7% A/C efficiency loss');
  await expect(amount(page, 'total')).toHaveText('$2,417.62 – $4,835.24');
  await expect(page.getByTestId('savings-total')).toContainText('Rates up 10% per year');
  await expect(amount(page, 'price')).toHaveText('$2,250.00');
  // The federal credit ended on 2025-12-31 (Public Law 119-21): no longer shown nor taken off (decision 0930).
  await expect(amount(page, 'incentives')).toHaveText('$0.00');
  await expect(page.getByText(/federal tax credit/i)).toHaveCount(0);
  await expect(amount(page, 'net')).toHaveText('$2,250.00');
  await expect(amount(page, 'payback')).toHaveText('year 3 (high) / year 5 (low)');
  const years = page.getByTestId('savings-years').locator('tbody tr');
  await expect(years).toHaveCount(5);
  await expect(years.nth(4).locator('td')).toHaveText(['5', '$3,865.22', '$579.78 – $1,159.57']);
}

test('a visitor without an account works out the worked example, and the shared link opens the same numbers', async ({
  page,
  browser,
}) => {
  await page.goto('/resources');
  await expect(page.getByTestId('savings-empty')).toBeVisible();
  await page.getByLabel('Attic size (sq ft)').fill('1500');
  await page.getByLabel('Monthly energy bill ($)').fill('200');
  await page.getByRole('button', { name: 'Add another month’s bill' }).click();
  await page.getByLabel('Monthly energy bill 2 ($)').fill('240');
  await choose(page, 'Climate region', /^Hot/);
  await expectWorkedExample(page);
  await expect(page).toHaveURL(/[?&]attic=1500(&|$)/);
  await expect(page).toHaveURL(/[?&]bills=200%2C240(&|$)|[?&]bills=200,240(&|$)/);
  await expect(page).toHaveURL(/[?&]region=hot(&|$)/);

  expect(await seriousViolations(page, 'section[aria-labelledby="savings-title"]')).toEqual([]);

  // The link opens the same estimate in a fresh browser with no cookies.
  const url = page.url();
  const other = await browser.newContext();
  const shared = await other.newPage();
  await shared.goto(url);
  await expectWorkedExample(shared);
  await expect(shared.getByLabel('Monthly energy bill 2 ($)')).toHaveValue('240');

  // A quote replaces the estimate; a bad bill shows its message and no numbers.
  await shared.getByLabel('Installed price quote ($, optional)').fill('3000.50');
  await expect(amount(shared, 'price')).toHaveText('$3,000.50');
  await expect(amount(shared, 'net')).toHaveText('$3,000.50');
  await shared.getByLabel('Monthly energy bill ($)').fill('abc');
  await expect(shared.getByText(/Enter a monthly bill in dollars/)).toBeVisible();
  await expect(shared.getByTestId('savings-empty')).toBeVisible();
  await other.close();
});

test('a link with nonsense in it shows the messages, not a broken page', async ({ page }) => {
  await page.goto('/resources?attic=12&bills=x,250&region=moon');
  await expect(page.getByRole('heading', { name: 'Homeowner savings calculator' })).toBeVisible();
  await expect(page.getByText(/Attic size must be a whole number/)).toBeVisible();
  await expect(page.getByTestId('savings-empty')).toBeVisible();
});

test('claims are dated content: the ended federal credit shows nowhere; an owner’s Texas incentive lowers the net cost for a Texas ZIP', async ({
  page,
}) => {
  // The ended federal credit is on record for owners, and on no public page.
  await signInAs(page, ADMIN.username);
  await page.goto('/admin/claims');
  const federal = page.getByTestId('claim-row').filter({ hasText: /Federal tax credit/ });
  await expect(federal).toContainText('Ended');
  await expect(federal).toContainText('– 2025-12-31');
  for (const path of ['/about', '/presentation']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(/tax credit/i)).toHaveCount(0);
  }

  // An owner enters a Texas utility incentive in the console.
  const tag = Date.now().toString(36);
  await page.goto('/admin/claims');
  await page.getByRole('button', { name: 'Add claim or incentive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add claim or incentive' });
  await dialog.getByLabel('Text').fill(`Texas attic rebate ${tag}`);
  await dialog.getByLabel('Amount ($)').fill('400');
  await dialog.getByLabel('Source').fill('https://example.org/texas-attic-rebate');
  await dialog.getByLabel('Effective from').fill('2026-01-01');
  await choose(page, 'State', 'TX');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('claim-row').filter({ hasText: `Texas attic rebate ${tag}` })).toContainText(
    'In effect',
  );

  // A homeowner in Dallas gets it; one in Los Angeles does not.
  await page.goto('/resources?attic=1500&bills=200%2C240&region=hot');
  await expect(amount(page, 'net')).toHaveText('$2,250.00');
  await page.getByLabel('ZIP code (optional)').fill('75001');
  await expect(amount(page, 'incentive-1')).toHaveText('− $400.00');
  await expect(page.getByTestId('savings-incentive-1')).toContainText(`Texas attic rebate ${tag}`);
  await expect(amount(page, 'net')).toHaveText('$1,850.00');
  await expect(page).toHaveURL(/[?&]zip=75001(&|$)/);
  await page.getByLabel('ZIP code (optional)').fill('90012');
  await expect(amount(page, 'incentives')).toHaveText('$0.00');
  await expect(amount(page, 'net')).toHaveText('$2,250.00');
});
