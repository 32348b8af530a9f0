import { expect, request as playwrightRequest, test } from '@playwright/test';
import { approvedDealer } from './support/accounts';
import { waitForMail } from './support/mail';
import { limit } from './support/time';

/**
 * Issue 45, finding 3: the portal's payout form asks for the current password when the method,
 * routing number or account changes (not for a first save), says why, and after the change shows
 * when the new details are first paid; the dealer is emailed at once. At 390 and 1280 px.
 */

const details = (legalName: string) => ({
  legalName,
  taxClassification: 'individual',
  tin: '523-45-6781',
  address: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
  method: 'ach',
  routingNumber: '021000021',
  accountNumber: '7391846205',
  accountType: 'checking',
  certify: true,
});

for (const width of [390, 1280]) {
  test(`changing the bank account asks for the current password (${width} px)`, async ({ browser }) => {
    test.setTimeout(limit(180_000));
    const baseURL = process.env.E2E_BASE_URL!;
    const admin = await playwrightRequest.newContext({ baseURL });
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      ...(width < 500 ? { isMobile: true, hasTouch: true } : {}),
    });
    const page = await context.newPage();
    try {
      const tag = `${width}-${Date.now().toString(36)}`;
      const name = `Pia Payee ${tag}`;
      const dealer = await approvedDealer(page.request, admin, { fullName: name, companyName: `Pia Co ${tag}` });
      // The first save needs no password (there was no destination to redirect).
      const first = await page.request.put('/api/dealer/payout-profile', { data: details(name) });
      expect(first.status(), await first.text()).toBe(200);

      await page.goto('/dashboard');
      const card = page.getByTestId('payouts-card');
      await expect(card.getByTestId('payouts-summary')).toContainText('account ending 6205', {
        timeout: limit(45_000),
      });
      await card.getByRole('button', { name: 'Update payout details' }).click();
      const text = (label: string) => card.getByRole('textbox', { name: label, exact: true });
      await text('Legal name (as on your tax return)').fill(name);
      await text('SSN or EIN').fill('523-45-6781');
      await text('Street address').fill('1 Main St');
      await text('City').fill('Austin');
      await text('State').fill('TX');
      await text('ZIP code').fill('78701');
      await text('Routing number').fill('021000021');
      const password = card.getByLabel('Your current password');
      // The same account: no password asked.
      await text('Account number').fill('7391846205');
      await expect(password).toHaveCount(0);
      // Another account: the field appears, with why.
      await text('Account number').fill('5550001111');
      await expect(password).toBeVisible();
      await expect(card).toContainText('Needed to change where your payouts go');
      await text('Signature: type your legal name').fill(name);
      await card.getByLabel(/I certify/).check();
      await card.getByRole('button', { name: 'Save and sign' }).click();
      await expect(card).toContainText('Enter your current password to change where your payouts go');
      await password.fill('not-the-password-1');
      await card.getByRole('button', { name: 'Save and sign' }).click();
      await expect(card).toContainText('Current password is incorrect');
      await password.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/payout-password-${width}.png`, fullPage: false });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await password.fill(dealer.password);
      await card.getByRole('button', { name: 'Save and sign' }).click();
      await expect(card.getByTestId('payouts-summary')).toContainText('account ending 1111', {
        timeout: limit(45_000),
      });
      await expect(card.getByTestId('payouts-new-details')).toContainText('the new details are paid from');
      await card.getByTestId('payouts-new-details').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/payout-changed-${width}.png`, fullPage: false });
      const mail = await waitForMail(dealer.email, /Your payout details were changed/);
      expect(JSON.stringify(mail)).toContain('ending in 6205');
    } finally {
      await context.close();
      await admin.dispose();
    }
  });
}
