import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { uniqueEmail } from './support/accounts';
import { signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { readyInstaller } from './support/installer';
import { linkIn, waitForMail } from './support/mail';
import { expectFits } from './support/site';
import { limit } from './support/time';

/**
 * Issue 50 (decisions 1100, 1101): a homeowner on a phone confirms the installation and rates the
 * installer in one step from the status page; the installer reads the review on the dashboard's
 * scorecard; the console shows it in the Jobs section's table and on the dealer's page. Axe on each.
 */

// Santa Fe, NM: no other spec's installer is within reach of it.
const ZIP = '87501';

test('a homeowner confirms and rates an installed job on a phone; the installer and the console see the review', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(limit(240_000));
  const admin = await playwrightRequest.newContext({ baseURL });
  const installerCtx = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const company = `Santa Fe Attic ${Date.now().toString(36)}`;
  const installer = await readyInstaller(installerCtx.request, admin, {
    tier: 'Authorized',
    zipCode: ZIP,
    companyName: company,
  });

  // The homeowner asks for a quote; the installer accepts it and marks it installed.
  const home = uniqueEmail('rating-home');
  const quote = await admin.post('/api/quote-requests', {
    data: {
      fullName: 'Rosa Homeowner',
      email: home,
      phone: '505-555-0142',
      street: '100 Palace Ave',
      city: 'Santa Fe',
      state: 'NM',
      zipCode: ZIP,
      consent: true,
    },
  });
  expect(quote.status(), await quote.text()).toBe(201);
  const offers = (await (await installerCtx.request.get('/api/dealer/job-offers')).json()).items as {
    id: string;
    jobId: string;
    city: string;
  }[];
  const offer = offers.find((o) => o.city === 'Santa Fe');
  expect(offer, 'the Santa Fe offer').toBeDefined();
  expect((await installerCtx.request.post(`/api/dealer/job-offers/${offer!.id}/accept`)).ok()).toBe(true);
  const installed = await installerCtx.request.post(`/api/dealer/jobs/${offer!.jobId}/status`, {
    data: { status: 'installed' },
  });
  expect(installed.ok(), await installed.text()).toBe(true);
  const complete = await waitForMail(home, /installation is complete/);
  expect(complete.text).toContain('rate your installer');

  // On a 390 px phone: one card asks both, the stars and the comment above the two answers.
  const phone = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const homeowner = await phone.newPage();
  await homeowner.goto(linkIn(complete, '/quote/'));
  const question = homeowner.getByTestId('installation-question');
  await expect(question).toContainText('Was your installation completed?');
  await expect(question).toContainText('Rate your installer (optional)');
  expect(await seriousViolations(homeowner)).toEqual([]);
  // A tap on the fourth star (its label; the radio under it is what assistive technology reads).
  const fourth = question.getByRole('radio', { name: '4 stars' });
  await question.locator(`label[for="${await fourth.getAttribute('id')}"]`).tap();
  await expect(fourth).toBeChecked();
  const comment = question.getByRole('textbox', { name: 'Comment (optional)' });
  // A link is refused before anything is sent, and the page says why.
  await comment.fill('Great crew! More at www.cheap-fans.biz');
  await question.getByRole('button', { name: 'Yes, it was completed' }).tap();
  await expect(question).toContainText('Comment must be text only: no links');
  await expect(question).toBeVisible();
  await comment.fill('Great crew, on time and tidy.');
  await question.getByRole('checkbox', { name: /You may show my rating and comment publicly/ }).check();
  const yes = question.getByRole('button', { name: 'Yes, it was completed' });
  await expectFits(yes, 390, 44);
  await homeowner.screenshot({ path: test.info().outputPath('review-question-390.png'), fullPage: true });
  await yes.tap();
  await expect(homeowner.getByTestId('installation-answer')).toContainText('you confirmed your installation');
  await expect(homeowner.getByTestId('installation-reviewed')).toContainText('4 stars');
  await expect(homeowner.getByTestId('installation-reviewed')).toContainText('Great crew, on time and tidy.');
  await expect(homeowner.getByTestId('installation-question')).toHaveCount(0);
  await expect(homeowner.getByTestId('installation-review')).toHaveCount(0);
  expect(await seriousViolations(homeowner)).toEqual([]);
  await homeowner.screenshot({ path: test.info().outputPath('review-done-390.png'), fullPage: true });
  // Once: the API says so too.
  const token = new URL(linkIn(complete, '/quote/')).pathname.split('/').pop();
  expect(
    (await homeowner.request.post(`/api/installation-status/${token}/review`, { data: { rating: 1 } })).status(),
  ).toBe(409);

  // The installer's dashboard: the scorecard with the review.
  const dashboard = await installerCtx.newPage();
  await dashboard.goto('/dashboard');
  const card = dashboard.getByTestId('scorecard-card');
  await expect(card).toContainText('Your scorecard');
  await expect(card.getByTestId('scorecard-averageRating')).toContainText('4.00 / 5');
  await expect(card.getByTestId('scorecard-reviewCount')).toContainText('1');
  await expect(card.getByTestId('scorecard-review')).toContainText('Great crew, on time and tidy.');
  await expect(card.getByTestId('scorecard-review')).toContainText('Santa Fe, NM');
  await expect(card.getByTestId('scorecard-review')).not.toContainText('Rosa');
  await card.scrollIntoViewIfNeeded();
  expect(await seriousViolations(dashboard, '[data-testid="scorecard-card"]')).toEqual([]);
  await card.screenshot({ path: test.info().outputPath('scorecard-card-1280.png') });
  // On a phone the card fits: no sideways scroll.
  await dashboard.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByTestId('scorecard-review')).toBeVisible();
  expect(await dashboard.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await card.screenshot({ path: test.info().outputPath('scorecard-card-390.png') });

  // The console: the Jobs section's sortable table and the dealer's page.
  const consolePage = await (await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })).newPage();
  await signInAs(consolePage, ADMIN.username);
  await consolePage.goto('/admin/jobs');
  await consolePage.getByRole('button', { name: 'Show scorecards' }).click();
  const table = consolePage.getByTestId('scorecard-table');
  const row = table.getByTestId('scorecard-row').filter({ hasText: company });
  await expect(row).toContainText('4.00');
  await expect(table.getByTestId('tier-median-Authorized')).toContainText('rating 4.00 / 5');
  await table.getByRole('button', { name: 'Reviews', exact: true }).click();
  await expect(table.getByRole('button', { name: /^Reviews ?, sorted descending$/ })).toBeVisible();
  await expect(row).toBeVisible();
  expect(await seriousViolations(consolePage, '[data-testid="scorecard-table"]')).toEqual([]);
  await table.screenshot({ path: test.info().outputPath('console-scorecards-1280.png') });
  await row.getByRole('link', { name: company }).click();
  const panel = consolePage.getByTestId('dealer-scorecard');
  await expect(panel).toContainText('Installer scorecard');
  await expect(panel.getByTestId('scorecard-review')).toContainText('may be shown publicly');
  expect(await seriousViolations(consolePage, '[data-testid="dealer-scorecard"]')).toEqual([]);
  await panel.screenshot({ path: test.info().outputPath('dealer-scorecard-1280.png') });
  expect(installer.id).toBeTruthy();
  await admin.dispose();
});
