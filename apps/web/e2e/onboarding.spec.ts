import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { approvedDealer } from './support/accounts';
import { signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { CERTIFICATE_PDF } from './support/installer';
import { linkIn, waitForMail } from './support/mail';

const todayEt = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
const plusDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
/** "Dec 3": how a booked call's day reads (issue 47: "Thu, Dec 3, 10:00 AM ET"). */
const shortDay = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
/** "3 December 2026": the calendar's day label. */
const dayLabel = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(
    new Date(`${iso}T00:00:00Z`),
  );

test('a new Authorized dealer signs, books the call, files compliance; an admin records the payment; onboarding completes', async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  const dealer = await approvedDealer(page.request, admin, {
    tier: 'Authorized',
    fullName: 'Olive Onboard',
    companyName: 'Onboard Co',
    entityType: 'LLC',
    salesReps: 2,
    monthlyVolume: 10,
  });

  await page.setViewportSize({ width: 390, height: 844 }); // mobile first
  await page.goto('/dashboard#onboarding-agreement');
  const card = page.getByTestId('onboarding-card');
  await expect(card.getByTestId('onboarding-count')).toHaveText('0 of 4 steps done');
  const agreement = card.getByTestId('agreement-screen');
  await expect(agreement.getByText('Authorized Dealer Agreement', { exact: false }).first()).toBeVisible();
  expect(await seriousViolations(page, '[data-testid="onboarding-card"]')).toEqual([]);

  // The agreement: a name that is not the account's is refused, then signed.
  await agreement.getByLabel('Type your full name to sign').fill('Olive Other');
  await agreement.getByLabel(/I have read and accept/).check();
  await agreement.getByRole('button', { name: 'Sign the agreement' }).click();
  await expect(agreement.getByText('Type your full name exactly as it appears on your account')).toBeVisible();
  await agreement.getByLabel('Type your full name to sign').fill('  olive   onboard ');
  await agreement.getByRole('button', { name: 'Sign the agreement' }).click();
  await expect(agreement.getByText('You have signed the current version.')).toBeVisible();
  await expect(agreement.getByTestId('agreement-pdf')).toHaveAttribute('href', '/api/dealer/agreement/pdf');
  const pdf = await page.request.get('/api/dealer/agreement/pdf');
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await expect(card.getByTestId('onboarding-count')).toHaveText('1 of 4 steps done');
  expect(await seriousViolations(page, '[data-testid="agreement-screen"]')).toEqual([]);

  // The onboarding call, on the free call's calendar.
  // The call's due date (approval + 5 business days) is a business day by construction.
  const steps = (await (await page.request.get('/api/dealer/onboarding')).json()).steps as {
    key: string;
    dueBy?: string;
  }[];
  const date = steps.find((s) => s.key === 'onboardingCall')?.dueBy as string;
  await card.getByRole('button', { name: /Book and hold your onboarding call/ }).click();
  const call = card.getByTestId('call-screen');
  await call.getByLabel('Date').click();
  if (date.slice(0, 7) !== todayEt().slice(0, 7)) await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: dayLabel(date), exact: true }).click();
  await call.getByRole('button', { name: 'Book the call' }).click();
  await expect(call.getByTestId('call-booked')).toContainText(
    new RegExp(`Booked: \\w{3}, ${shortDay(date)}, 10:00 AM \\w+`),
  );
  // Issue 47: a booked call is not a red "To do": it says when, and that holding it completes it.
  const callStep = card.getByTestId('step-onboardingCall');
  await expect(callStep).toContainText(/Booked for \w{3}, \w{3} \d+, 10:00 AM \w+ — completes when the call is held/);
  // The step's header (its note and badge) no longer says "Due by"; the open form still says when it is due.
  const callHeader = callStep.locator('.mantine-Accordion-control');
  await expect(callHeader).not.toContainText('Due by');
  await expect(callHeader).toContainText('Booked');

  // The confirmation's reschedule link works without signing in, once.
  const link = linkIn(await waitForMail(dealer.email, /Your onboarding call:/), '/dashboard');
  expect(link).toContain('#reschedule=');
  const anonymous = await browser.newContext({ baseURL });
  const visitor = await anonymous.newPage();
  await visitor.goto(link);
  await visitor.getByLabel('Date').click();
  if (date.slice(0, 7) !== todayEt().slice(0, 7)) await visitor.getByRole('button', { name: 'Next month' }).click();
  await visitor.getByRole('button', { name: dayLabel(date), exact: true }).click();
  await visitor.getByRole('combobox', { name: /^Time/ }).click();
  await visitor.getByRole('option', { name: '2:00 PM', exact: true }).click();
  await visitor.getByRole('button', { name: 'Reschedule' }).click();
  await expect(visitor.getByTestId('reschedule-done')).toContainText(
    new RegExp(`on \\w{3}, ${shortDay(date)}, 2:00 PM \\w+`),
  );
  await anonymous.close();
  await page.reload();
  await card.getByRole('button', { name: /Book and hold your onboarding call/ }).click();
  await expect(call.getByTestId('call-booked')).toContainText(
    new RegExp(`Booked: \\w{3}, ${shortDay(date)}, 2:00 PM \\w+`),
  );

  // Insurance and licence: each uploaded as a file with its expiry date (issue 45), waiting for review.
  await card.getByRole('button', { name: /Insurance certificate and contractor licence/ }).click();
  const compliance = card.getByTestId('compliance-screen');
  const files = [
    ['insurance', 'Insurance certificate', 365],
    ['licence', 'Contractor licence', 200],
  ] as const;
  for (const [kind, label, days] of files) {
    const box = compliance.getByTestId(`compliance-${kind}`);
    await box.locator('input[type="file"]').setInputFiles({
      name: `olive-${kind}.pdf`,
      mimeType: 'application/pdf',
      buffer: CERTIFICATE_PDF,
    });
    await box.getByLabel(`${label} expires on`).fill(plusDays(todayEt(), days));
    await box.getByRole('button', { name: `Upload ${label.toLowerCase()}` }).click();
    await expect(box.getByTestId('document-status').first()).toHaveText('Pending review');
  }
  expect(await seriousViolations(page, '[data-testid="compliance-screen"]')).toEqual([]);
  await expect(card.getByTestId('onboarding-count')).toHaveText('1 of 4 steps done');

  // The admin records the upfront payment and marks the call held, on the dealer's detail view.
  const adminContext = await browser.newContext({ baseURL });
  const adminPage = await adminContext.newPage();
  await signInAs(adminPage, ADMIN.username);
  await adminPage.goto(`/admin/dealers/${dealer.id}`);
  const panel = adminPage.getByTestId('admin-onboarding');
  await expect(panel.getByTestId('admin-onboarding-badge')).toHaveText('1 of 5 steps');
  // The admin verifies both documents: only then do the two steps count.
  const documents = panel.getByTestId('admin-compliance-documents');
  for (const left of [1, 0]) {
    await documents.getByRole('button', { name: 'Verify' }).first().click();
    await expect(documents.getByRole('button', { name: 'Verify' })).toHaveCount(left);
  }
  await expect(panel.getByTestId('admin-onboarding-badge')).toHaveText('3 of 5 steps');
  const form = panel.getByTestId('inventory-payment-form');
  await form.getByLabel('Amount').fill('5000.00');
  await form.getByLabel('Reference').fill('Wire 2026-001');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(panel.getByTestId('admin-step-initialInventory')).toContainText('Paid $5,000.00');
  await panel.getByRole('button', { name: 'Mark call held' }).click();
  await expect(panel.getByTestId('admin-onboarding-badge')).toHaveText('Complete');
  // The owner's settings: the agreement texts and the inventory amounts, in Content.
  await adminPage.goto('/admin/content');
  await expect(adminPage.getByTestId('agreement-Authorized').getByRole('heading')).toHaveText(
    /Authorized agreement, version \d+/,
  );
  await expect(adminPage.getByTestId('inventory-Preferred').getByLabel('Upfront')).toHaveValue('12500.00');
  await adminContext.close();

  await page.reload();
  await expect(card.getByRole('heading', { name: 'Onboarding complete' })).toBeVisible();
  await expect(card.getByTestId('onboarding-count')).toHaveText('4 of 4 steps done');
  await expect(card.getByTestId('onboarding-progress').locator('[role="progressbar"]')).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await admin.dispose();
});
