import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { approvedDealer, referenceTo, uniqueEmail } from './support/accounts';
import { adminSection, signInAs } from './support/admin';
import { advanceClock } from './support/clock';
import { readyInstaller, serverNow } from './support/installer';
import { linkIn, waitForMail } from './support/mail';
import { expectFits, typeAndPick } from './support/site';
import { limit } from './support/time';

/** Issue 37: a sold job goes from an Affiliate through the installers to the homeowner's inbox. */

test('an Affiliate registers a job, a Preferred installer declines it on a phone, an Authorized one installs it, the recruiter earns', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(limit(240_000));
  const admin = await playwrightRequest.newContext({ baseURL });
  const seller = await (await browser.newContext()).newPage();
  const preferred = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const authorized = await (await browser.newContext()).newPage();
  // The Affiliate was recruited by Rita: her commission follows the installed job's order.
  const recruiter = await (await browser.newContext()).newPage();
  const company = `Rita Jobs ${Date.now().toString(36)}`;
  await approvedDealer(recruiter.request, admin, { fullName: 'Rita Recruiter', companyName: company });
  await approvedDealer(seller.request, admin, {
    fullName: 'Sam Seller',
    referredBy: await referenceTo(seller.request, company),
  });
  const rule = await admin.put('/api/admin/commission-rules/Affiliate', {
    data: { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 },
  });
  expect(rule.ok()).toBe(true);
  // Installers who signed their agreement and whose insurance and licence the owner verified (the offer gate).
  await readyInstaller(preferred.request, admin, { tier: 'Preferred', zipCode: '78664' });
  await readyInstaller(authorized.request, admin, { tier: 'Authorized', zipCode: '78702' });

  // The Affiliate registers the job on the dashboard.
  const home = uniqueEmail('homeowner');
  await seller.goto('/dashboard');
  const card = seller.getByTestId('jobs-card');
  await card.getByRole('button', { name: 'Register a job' }).click();
  await card.getByRole('textbox', { name: 'Homeowner name', exact: true }).fill('Hanna Homeowner');
  await card.getByRole('textbox', { name: 'Homeowner email', exact: true }).fill(home);
  await card.getByRole('textbox', { name: 'Homeowner phone', exact: true }).fill('512-555-0199');
  await card.getByRole('textbox', { name: 'Street', exact: true }).fill('12 Elm St');
  await card.getByRole('textbox', { name: 'City', exact: true }).fill('Austin');
  await typeAndPick(card.getByRole('combobox', { name: 'State' }), 'TX', 'Texas (TX)');
  await card.getByRole('textbox', { name: 'ZIP code', exact: true }).fill('78701');
  await card.getByRole('textbox', { name: 'Sale amount ($)', exact: true }).fill('1500.00');
  await card.getByRole('button', { name: 'Register job', exact: true }).click();
  await expect(seller.getByText('Offered to an installer near the homeowner.')).toBeVisible();

  // The Preferred installer sees it first, on a 390 px phone, and declines it in one tap.
  await preferred.goto('/dashboard');
  const offer = preferred.getByTestId('job-offer');
  await expect(offer).toContainText('Austin, TX 78701');
  await expect(offer).not.toContainText('Hanna');
  await expectFits(offer.getByRole('button', { name: 'Decline' }), 390);
  await offer.getByRole('button', { name: 'Decline' }).click();
  const dialog = preferred.getByRole('dialog', { name: 'Decline this job?' });
  await dialog.getByRole('radio', { name: 'Schedule is full' }).check();
  await dialog.getByRole('button', { name: 'Decline job' }).click();
  await expect(preferred.getByText('Offer declined')).toBeVisible();
  await expect(preferred.getByTestId('job-offer')).toHaveCount(0);

  // The Authorized installer accepts, schedules and marks it installed.
  await authorized.goto('/dashboard');
  await authorized.getByTestId('job-offer').getByRole('button', { name: 'Accept' }).click();
  const row = authorized.getByTestId('job-row');
  await expect(row).toContainText('Hanna Homeowner');
  await row.getByLabel('Date').fill('2026-12-09');
  await row.getByRole('button', { name: 'Schedule' }).click();
  await expect(row).toContainText('Scheduled for Wednesday, Dec 9, 2026');
  await row.getByRole('button', { name: 'Installed' }).click();
  await expect(row).toContainText('Installed');

  // The seller sees the installer; the homeowner got every email.
  await seller.reload();
  await expect(seller.getByTestId('job-row')).toContainText('Authorized Attic Co');
  await waitForMail(home, /received your installation request/);
  expect((await waitForMail(home, /Your installer/)).text).toContain('Authorized Attic Co');
  await waitForMail(home, /Installation scheduled/);
  const complete = await waitForMail(home, /installation is complete/);
  // The sale amount ($1,500.00) became Sam's order; Rita's 10% commission is held until the
  // homeowner confirms the installation (issue 45): nothing pending yet.
  await recruiter.goto('/dashboard');
  await expect(recruiter.getByTestId('earnings-pending')).toHaveText('$0.00');

  // The console's Jobs section (1280 px) shows the held commission, and an owner could release it.
  const console1280 = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInAs(console1280, ADMIN.username);
  await console1280.goto('/admin/jobs?status=installed');
  const heldRow = console1280
    .getByTestId('admin-job-row')
    .filter({ hasText: 'Austin, TX 78701' })
    .filter({ hasText: 'Commission held' })
    .first();
  await expect(heldRow).toContainText("Commission held: waiting for the homeowner's answer");
  await expect(heldRow.getByRole('button', { name: 'Release commission' })).toBeVisible();
  await console1280.screenshot({ path: test.info().outputPath('admin-jobs-held-1280.png') });

  // The homeowner confirms it from the status link, on a 390 px phone, once.
  const homeowner = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await homeowner.goto(linkIn(complete, '/quote/'));
  const question = homeowner.getByTestId('installation-question');
  await expect(question).toContainText('Was your installation completed?');
  await expect(question).toContainText('Amount $1,500.00');
  const yes = question.getByRole('button', { name: 'Yes, it was completed' });
  await expectFits(yes, 390, 36);
  await homeowner.screenshot({ path: test.info().outputPath('installation-question-390.png'), fullPage: true });
  await yes.click();
  await expect(homeowner.getByTestId('installation-answer')).toContainText('you confirmed your installation');
  await expect(homeowner.getByTestId('installation-question')).toHaveCount(0);
  await homeowner.screenshot({ path: test.info().outputPath('installation-confirmed-390.png'), fullPage: true });
  await homeowner.reload();
  await expect(homeowner.getByTestId('installation-answer')).toBeVisible();
  const token = new URL(linkIn(complete, '/quote/')).pathname.split('/').pop();
  const again = await homeowner.request.post(`/api/installation-status/${token}/confirm`, {
    data: { confirmed: false },
  });
  expect(again.status()).toBe(409);

  // Confirmed: Rita's commission is pending.
  await recruiter.reload();
  await expect(recruiter.getByTestId('earnings-pending')).toHaveText('$150.00', { timeout: limit(45_000) });
  await admin.dispose();
});

test('a homeowner quote from the calculator arrives as a job, with a status page', async ({ page, baseURL }) => {
  await page.goto('/resources');
  await page.getByTestId('calculator-quote-link').click();
  await expect(page).toHaveURL(/\/quote$/);
  const email = uniqueEmail('quote');
  await page.getByRole('textbox', { name: 'Full name', exact: true }).fill('Quinn Quote');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('406-555-0142');
  await page.getByRole('textbox', { name: 'Street', exact: true }).fill('5 Pine Rd');
  await page.getByRole('textbox', { name: 'City', exact: true }).fill('Billings');
  await typeAndPick(page.getByRole('combobox', { name: 'State' }), 'Montana', 'Montana (MT)');
  await page.getByRole('textbox', { name: 'ZIP code', exact: true }).fill('59101');
  await page.getByRole('button', { name: 'Request my quote' }).click();
  await expect(page.getByText('Please agree to be contacted about your installation')).toBeVisible();
  await page.getByLabel('I agree to be contacted by phone and email about my installation').check();
  await page.getByRole('button', { name: 'Request my quote' }).click();
  await expect(page.getByTestId('quote-received')).toBeVisible();

  // Nobody installs in Billings yet: the admin's queue has it unrouted.
  const admin = await playwrightRequest.newContext({ baseURL });
  expect((await admin.post('/api/admin/login', { data: ADMIN })).ok()).toBe(true);
  const jobs = await admin.get('/api/admin/jobs?status=unrouted&state=MT');
  expect((await jobs.json()).items.map((j: { city: string }) => j.city)).toContain('Billings');
  await admin.dispose();

  await page.goto(linkIn(await waitForMail(email, /received your installation request/), '/quote/'));
  await expect(page.getByTestId('installation-status')).toContainText('Waiting for an installer');

  // The admin's coverage map lists Billings among the ZIP codes nobody covers.
  await signInAs(page, ADMIN.username);
  await adminSection(page, 'Jobs').click();
  await page.getByRole('button', { name: 'Coverage map' }).click();
  await expect(page.getByTestId('recruit-here')).toContainText('59101');
  await expect(page.locator('[data-testid="coverage-map"] svg path').first()).toBeVisible();
  await page.getByTestId('coverage-map').screenshot({ path: test.info().outputPath('coverage-map.png') });
});

test('an insurance expiry pauses job offers: the installer gets none once the certificate has expired', async ({
  page,
  baseURL,
}) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  // Cover ends on the server's (UTC) today: offers go on today, and stop the day after.
  const expiresOn = serverNow().toISOString().slice(0, 10);
  await readyInstaller(page.request, admin, {
    tier: 'Authorized',
    zipCode: '82001',
    companyName: 'Cheyenne Attic Co',
    insuranceExpiresOn: expiresOn,
  });
  const marker = `gate-${Date.now().toString(36)}`;
  const quote = async (notes: string) => {
    const res = await page.request.post('/api/quote-requests', {
      data: {
        fullName: 'Wyatt Homeowner',
        email: uniqueEmail('wy'),
        phone: '307-555-0142',
        street: '1 Capitol Ave',
        city: 'Cheyenne',
        state: 'WY',
        zipCode: '82001',
        notes,
        consent: true,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { status: string }).status;
  };
  const offers = async () =>
    (
      (await (await page.request.get('/api/dealer/job-offers')).json()).items as { id: string; notes: string | null }[]
    ).filter((o) => o.notes?.startsWith(marker));

  // Insured through today: the nearby job is offered (the dashboard shows it), and declined.
  expect(await quote(`${marker} before`)).toBe('offered');
  await page.goto('/dashboard');
  await expect(page.getByTestId('job-offer')).toContainText('Cheyenne, WY 82001');
  const [first] = await offers();
  expect(first?.notes).toBe(`${marker} before`);
  const decline = await page.request.post(`/api/dealer/job-offers/${first?.id}/decline`, {
    data: { reason: 'Schedule is full' },
  });
  expect(decline.ok(), await decline.text()).toBe(true);

  // The next UTC day (a minute past midnight): the insurance has expired, the same job is not offered.
  const midnight = new Date(`${expiresOn}T00:00:00Z`).getTime() + 86_400_000;
  advanceClock(midnight + 60_000 - serverNow().getTime());
  expect(await quote(`${marker} after`)).toBe('unrouted');
  expect(await offers()).toEqual([]);
  await page.reload();
  await expect(page.getByTestId('job-offer')).toHaveCount(0);
  await admin.dispose();
});
