import { expect, type Page, test } from '@playwright/test';
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
  await expect(amount(page, 'credit')).toHaveText('− $675.00');
  await expect(page.getByTestId('savings-credit')).toContainText('30% federal tax credit');
  await expect(amount(page, 'net')).toHaveText('$1,575.00');
  await expect(amount(page, 'payback')).toHaveText('year 2 (high) / year 4 (low)');
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
  await expect(amount(shared, 'credit')).toHaveText('− $900.15');
  await expect(amount(shared, 'net')).toHaveText('$2,100.35');
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
