import { readFileSync } from 'node:fs';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, approveAsAdmin, approvedDealer, referenceTo, uniqueEmail } from './support/accounts';
import { adminSection, signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { waitForMail } from './support/mail';
import { sql } from './support/site';
import { limit } from './support/time';
import { signed } from './support/webhook';

/**
 * The partner program's whole loop (issue 13): a referred dealer's order arrives by the signed
 * webhook -> the recruiter's dashboard shows a pending commission -> the admin approves it and
 * pays a batch -> the recruiter sees it paid and has the email (the real SMTP receiver). On the
 * way: the referred dealer's first order date and order history, the recruiter's referral list
 * with statuses and funnel (decision 0720).
 */

/** Complete payout details and W-9 (issue 39) for PUT /api/dealer/payout-profile. */
const payoutDetails = (legalName: string) => ({
  legalName,
  taxClassification: 'individual',
  tin: '523-45-6781',
  address: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
  method: 'ach',
  routingNumber: '021000021',
  accountNumber: '7391846299',
  accountType: 'checking',
  certify: true,
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Signs like a Standard Webhooks sender (the server verifies with the standardwebhooks package). */

test('a referred order earns a commission that the admin approves and pays', async ({ page, browser }) => {
  test.setTimeout(limit(240_000));
  const baseURL = process.env.E2E_BASE_URL!;
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    const company = `Rita Referrals ${Date.now().toString(36)}`;
    const recruiter = await approvedDealer(page.request, admin, { fullName: 'Rita Recruiter', companyName: company });
    // Issue 39: a batch pays only recruiters with payout details and a signed W-9.
    const details = await page.request.put('/api/dealer/payout-profile', { data: payoutDetails('Rita Recruiter') });
    expect(details.status(), await details.text()).toBe(200);
    // The recruiter's link, and one visit through it (the landing page's tracking call).
    const recruiterId = `rita${Date.now().toString(36)}`;
    const link = await page.request.post('/api/affiliate/create-link', { data: { recruiterId } });
    expect(link.status(), await link.text()).toBe(200);
    const visit = await admin.post('/api/affiliate/track-event', { data: { eventType: 'url_capture', recruiterId } });
    expect(visit.status(), await visit.text()).toBe(200);
    // Two referrals: one applied and left pending, one approved who signs in to their dashboard.
    const other = await playwrightRequest.newContext({ baseURL });
    await applyAsDealer(other, uniqueEmail('applied'), {
      fullName: 'Amy Applied',
      referredBy: await referenceTo(other, company),
    });
    await other.dispose();
    const referredContext = await browser.newContext();
    const referredPage = await referredContext.newPage();
    const referred = await approvedDealer(referredPage.request, admin, {
      fullName: 'Dan Referred',
      referredBy: await referenceTo(referredPage.request, company),
    });
    const referredId = referred.id;
    const rule = await admin.put('/api/admin/commission-rules/Affiliate', {
      data: { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 },
    });
    expect(rule.ok()).toBe(true);

    // The order arrives by the webhook.
    const orderId = `E2E-${Date.now().toString(36)}`;
    const body = JSON.stringify({
      orderId,
      dealerId: referredId,
      amount: '612.35',
      orderedAt: new Date().toISOString(),
    });
    const hook = await admin.post('/api/integrations/orders', { headers: signed(body), data: body });
    expect(hook.status(), await hook.text()).toBe(200);

    // The recruiter sees it pending (10% of 612.35 = 61.235 -> $61.24).
    await page.goto('/dashboard');
    // A shared, busy machine: the first dashboard load may take a while.
    await expect(page.getByTestId('earnings-pending')).toHaveText('$61.24', { timeout: limit(45_000) });
    const earned = page.getByTestId('commission-row').filter({ hasText: 'Dan Referred' });
    await expect(earned).toContainText('pending');
    // What it came from (issue 36): the order's amount and the rule's rate.
    await expect(earned).toContainText('$612.35');
    await expect(earned).toContainText('10%');

    // The referred dealer: "First order placed on …" and the order history instead of the first-order card.
    await referredPage.goto('/dashboard');
    await expect(referredPage.getByTestId('first-order-date')).toContainText('First order placed on', {
      timeout: limit(45_000),
    });
    const orderRow = referredPage.getByTestId('order-row').filter({ hasText: orderId });
    await expect(orderRow).toContainText('$612.35');
    await expect(orderRow).toContainText('placed');
    await expect(referredPage.getByRole('heading', { name: 'First Order Form' })).toHaveCount(0);
    await referredContext.close();

    // The recruiter: every referral with its status, and the funnel.
    await expect(page.getByTestId('referral-row').filter({ hasText: 'Dan Referred' })).toContainText('active');
    await expect(page.getByTestId('referral-row').filter({ hasText: 'Amy Applied' })).toContainText('applied');
    await expect(page.getByTestId('referral-row')).toHaveCount(2);
    await expect(page.getByTestId('funnel-visits-value')).toHaveText('1');
    await expect(page.getByTestId('funnel-applications-value')).toHaveText('2');
    await expect(page.getByTestId('funnel-approvals-value')).toHaveText('1');
    await expect(page.getByTestId('funnel-firstOrders-value')).toHaveText('1');

    // The admin approves it in Orders & commissions and pays a batch in Payouts.
    const adminPage = await (await browser.newContext()).newPage();
    await adminPage.goto('/admin/login');
    await adminPage.getByLabel('Username').fill(ADMIN.username);
    await adminPage.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await adminPage.getByRole('button', { name: /sign in|log in|login/i }).click();
    await expect(adminPage).toHaveURL(/\/admin$/);
    await adminSection(adminPage, 'Orders & commissions').click();
    // The recruiter filter, by keyboard: type the recruiter's email, arrow to the match, Enter.
    const recruiterFilter = adminPage.getByRole('combobox', { name: 'Recruiter', exact: true });
    await recruiterFilter.fill(recruiter.email);
    // The server's answer to the search: this one dealer only.
    await expect(adminPage.getByRole('option')).toHaveText([new RegExp(escapeRegExp(recruiter.email))], {
      timeout: limit(45_000),
    });
    await recruiterFilter.press('ArrowDown');
    await recruiterFilter.press('Enter');
    await expect(recruiterFilter).toHaveValue(/Rita Recruiter/);
    // Only this recruiter's one commission is listed (other tests' commissions are not).
    const rows = adminPage.getByTestId('admin-commission-row');
    await expect(rows).toHaveCount(1, { timeout: limit(45_000) });
    await expect(adminPage.getByTestId('commission-totals')).toContainText('Pending $61.24');
    await expect(adminPage.getByTestId('commission-totals')).toContainText('1 entry');
    const row = rows.filter({ hasText: orderId });
    await expect(row).toContainText('$61.24');
    await expect(row).toContainText('Rita Recruiter');
    // Approve on the commission's own row (issue 36).
    await row.getByRole('button', { name: `Approve commission on order ${orderId}` }).click();
    await expect(row).toContainText('approved');
    await adminSection(adminPage, 'Payouts').click();
    await adminPage.getByRole('button', { name: 'Create payout batch' }).click();
    const batch = adminPage.getByTestId('payout-row').first();
    await expect(batch).toContainText('created');
    await batch.getByRole('button', { name: 'Mark paid' }).click();
    // The confirmation says who is emailed (issue 36).
    await expect(adminPage.getByRole('dialog', { name: 'Mark payout paid' })).toContainText(
      /emails its \d+ recruiters? their payout/,
    );
    await adminPage.getByLabel('Payment reference').fill('ACH-E2E-1');
    await adminPage.getByRole('button', { name: /^Mark paid and email / }).click();
    await expect(batch).toContainText('paid (ACH-E2E-1)');

    // The recruiter sees it paid and has both emails.
    await page.reload();
    await expect(page.getByTestId('earnings-paid')).toHaveText('$61.24', { timeout: limit(45_000) });
    await expect(page.getByTestId('earnings-pending')).toHaveText('$0.00');
    await waitForMail(recruiter.email, /You earned a \$61\.24 commission/);
    const paid = await waitForMail(recruiter.email, /Your payout of \$61\.24 was sent/);
    expect(paid.text).toContain('ACH-E2E-1');

    // The admin refunds the order from the referred dealer's timeline: the order shows refunded,
    // and the paid commission is clawed back (a -$61.24 entry for the recruiter).
    await adminPage.goto(`/admin?q=${encodeURIComponent(referred.email)}`);
    await adminPage
      .getByTestId('dealer-row')
      .filter({ hasText: referred.email })
      .getByRole('button', { name: 'History' })
      .click();
    const timelineOrder = adminPage.getByTestId('dealer-order-row').filter({ hasText: orderId });
    await expect(timelineOrder).toContainText('placed', { timeout: limit(45_000) });
    await timelineOrder.getByRole('button', { name: 'Refund' }).click();
    await expect(timelineOrder).toContainText('refunded');
    await expect(timelineOrder.getByRole('button', { name: 'Refund' })).toHaveCount(0);
    await expect(adminPage.getByTestId('dealer-orders')).toContainText('0 orders · $0.00 revenue');
    await adminPage.keyboard.press('Escape');
    await adminSection(adminPage, 'Orders & commissions').click();
    await recruiterFilter.fill(recruiter.email);
    // The server's answer to the search: this one dealer only.
    await expect(adminPage.getByRole('option')).toHaveText([new RegExp(escapeRegExp(recruiter.email))], {
      timeout: limit(45_000),
    });
    await recruiterFilter.press('ArrowDown');
    await recruiterFilter.press('Enter');
    await expect(rows).toHaveCount(2, { timeout: limit(45_000) });
    const clawback = rows.filter({ hasText: '-$61.24' });
    await expect(clawback).toContainText(orderId);
    await expect(clawback).toContainText('clawback');
    await expect(rows.filter({ hasText: 'paid' })).toContainText('$61.24');
    await expect(adminPage.getByTestId('commission-totals')).toContainText('Clawbacks $61.24');
  } finally {
    await admin.dispose();
  }
});

test('an admin records an order on the timeline and from the dealer row, and imports orders from CSV', async ({
  page,
}) => {
  test.setTimeout(limit(240_000));
  const baseURL = process.env.E2E_BASE_URL!;
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    const tag = Date.now().toString(36);
    const email = uniqueEmail(`orders${tag}`);
    await applyAsDealer(admin, email, { fullName: `Olive Orders ${tag}` });
    await approveAsAdmin(admin, email);

    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await page.getByRole('button', { name: /sign in|log in|login/i }).click();
    await expect(page).toHaveURL(/\/admin$/);
    // The list shows the 50 newest and other specs add dealers in parallel: find this one by its tag.
    await page.goto(`/admin?q=${tag}`);

    // The timeline: record an order; the dealer becomes active.
    await page.getByTestId('dealer-row').filter({ hasText: email }).getByRole('button', { name: 'History' }).click();
    const orders = page.getByTestId('dealer-orders');
    await orders.getByLabel('Order id').fill(`T-${tag}`);
    await orders.getByLabel('Amount ($)').fill('120.5');
    await orders.getByRole('button', { name: 'Record order' }).click();
    await expect(orders).toContainText('1 order · $120.50 revenue', { timeout: limit(45_000) });
    await expect(orders).toContainText(`T-${tag}`);
    await page.keyboard.press('Escape');

    // The dealer row's "Record order" dialog.
    await page
      .getByTestId('dealer-row')
      .filter({ hasText: email })
      .getByRole('button', { name: 'Record order' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Record order' });
    await dialog.getByLabel('Order id').fill(`R-${tag}`);
    await dialog.getByLabel('Amount ($)').fill('5');
    await dialog.getByRole('button', { name: 'Record order' }).click();
    await expect(dialog).toHaveCount(0, { timeout: limit(45_000) });

    // The import: preview, progress, and a report of the rejected row.
    await page.goto('/admin?tab=commissions');
    const csv = [
      'orderId,dealerEmail,amount,orderedAt',
      `I1-${tag},${email},10.00,${new Date().toISOString()}`,
      `I2-${tag},${email},not-money,${new Date().toISOString()}`,
    ].join('\n');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('import-preview')).toContainText(`I2-${tag}`);
    await page.getByRole('button', { name: /Import 2 rows/ }).click();
    await expect(page.getByText('1 imported, 0 skipped, 1 rejected.')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download rejected rows' }).click();
    const report = readFileSync(await (await download).path(), 'utf8');
    expect(report).toContain(`3,I2-${tag},"Amount must be dollars and cents`);
    const list = await admin.get(`/api/admin/dealers?q=${encodeURIComponent(email)}`);
    const id = ((await list.json()) as { items: { id: string }[] }).items[0]!.id;
    const totals = await (await admin.get(`/api/admin/dealers/${id}/orders`)).json();
    expect(totals.totals).toMatchObject({ totalOrders: 3, totalRevenue: '135.50' });
  } finally {
    await admin.dispose();
  }
});

// Issue 39. In this file on purpose: a payout batch takes every payable entry, so the specs that
// create batches run one after the other (same file, one worker).
test('a recruiter fills payout details and the W-9 at 390 px; the owner pays a batch by bank file; the statement shows it', async ({
  browser,
}) => {
  test.setTimeout(limit(240_000));
  const baseURL = process.env.E2E_BASE_URL!;
  const admin = await playwrightRequest.newContext({ baseURL });
  const mobile = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await mobile.newPage();
  try {
    const tag = Date.now().toString(36);
    const ready = await approvedDealer(page.request, admin, {
      fullName: `Paula Payee ${tag}`,
      companyName: `Paula Co ${tag}`,
    });
    const heldContext = await playwrightRequest.newContext({ baseURL });
    await approvedDealer(heldContext, admin, { fullName: `Hal Held ${tag}`, companyName: `Hal Co ${tag}` });
    await heldContext.dispose();
    const settings = await admin.put('/api/admin/payment-settings', {
      data: {
        companyName: 'Dealer Network',
        companyId: '1123456789',
        originatingRouting: '011000015',
        originatingBankName: 'First Test Bank',
        payerName: 'Dealer Network LLC',
        payerTin: '12-3456789',
        payerAddress: { street: '9 Market St', city: 'Austin', state: 'TX', zipCode: '78702' },
      },
    });
    expect(settings.status(), await settings.text()).toBe(200);
    const rule = await admin.put('/api/admin/commission-rules/Affiliate', {
      data: { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 },
    });
    expect(rule.ok()).toBe(true);
    // One referred dealer each, one order each: 10% of 1000.00 = $100.00 per recruiter, approved.
    const ids: string[] = [];
    for (const company of [`Paula Co ${tag}`, `Hal Co ${tag}`]) {
      const ctx = await playwrightRequest.newContext({ baseURL });
      const d = await approvedDealer(ctx, admin, { referredBy: await referenceTo(ctx, company) });
      await ctx.dispose();
      const ord = await admin.post(`/api/admin/dealers/${d.id}/orders`, {
        data: {
          orderId: `P-${tag}-${ids.length}`,
          amount: '1000.00',
          orderedAt: new Date(Date.now() - 60_000).toISOString(),
        },
      });
      expect(ord.status(), await ord.text()).toBe(200);
      ids.push(d.id);
    }
    const pending = await admin.get('/api/admin/commissions?status=pending&pageSize=200');
    const mine = ((await pending.json()) as { items: { id: string; referredDealerId: string }[] }).items.filter((c) =>
      ids.includes(c.referredDealerId),
    );
    expect(mine).toHaveLength(2);
    const approve = await admin.post('/api/admin/commissions/approve', { data: { ids: mine.map((c) => c.id) } });
    expect(approve.status(), await approve.text()).toBe(200);

    // The recruiter, on a phone: payout details and the W-9.
    await page.goto('/dashboard');
    const card = page.getByTestId('payouts-card');
    await expect(card.getByTestId('payouts-incomplete')).toBeVisible({ timeout: limit(45_000) });
    await card
      .getByRole('textbox', { name: 'Legal name (as on your tax return)', exact: true })
      .fill(`Paula Payee ${tag}`);
    await card.getByRole('textbox', { name: 'SSN or EIN', exact: true }).fill('523-45-6781');
    await card.getByRole('textbox', { name: 'Street address', exact: true }).fill('1 Main St');
    await card.getByRole('textbox', { name: 'City', exact: true }).fill('Austin');
    await card.getByRole('textbox', { name: 'State', exact: true }).fill('TX');
    await card.getByRole('textbox', { name: 'ZIP code', exact: true }).fill('78701');
    await card.getByRole('textbox', { name: 'Routing number', exact: true }).fill('021000022');
    await card.getByRole('textbox', { name: 'Account number', exact: true }).fill('7391846205');
    await card
      .getByRole('textbox', { name: 'Signature: type your legal name', exact: true })
      .fill(`Paula Payee ${tag}`);
    await card.getByLabel(/I certify/).check();
    await card.getByRole('button', { name: 'Save and sign' }).click();
    // The checksum is checked in the browser before anything is sent.
    await expect(card).toContainText('ABA checksum');
    await card.getByRole('textbox', { name: 'Routing number', exact: true }).fill('021000021');
    await card.getByRole('button', { name: 'Save and sign' }).click();
    await expect(card.getByTestId('payouts-summary')).toContainText('TIN ending 6781', { timeout: limit(45_000) });
    await expect(card.getByTestId('payouts-summary')).toContainText('account ending 6205');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The owner: a batch (Hal held for missing details), the bank file, paid.
    const adminPage = await (await browser.newContext()).newPage();
    await signInAs(adminPage, ADMIN.username);
    await adminSection(adminPage, 'Payouts').click();
    await adminPage.getByRole('button', { name: 'Create payout batch' }).click();
    await expect(adminPage.getByTestId('payout-held')).toContainText(`Hal Held ${tag}`, { timeout: limit(45_000) });
    const batch = adminPage.getByTestId('payout-row').first();
    await expect(batch).toContainText('created');
    const [download] = await Promise.all([
      adminPage.waitForEvent('download'),
      batch.getByTestId('download-ach').click(),
    ]);
    const ach = readFileSync((await download.path())!, 'utf8');
    const records = ach.split('\r\n').filter(Boolean);
    expect(records.every((r) => r.length === 94)).toBe(true);
    expect(records.length % 10).toBe(0);
    const entry = records.find((r) => r.startsWith('6') && r.includes('7391846205'));
    expect(entry?.slice(29, 39)).toBe('0000010000');
    expect(ach).not.toContain(`HAL HELD ${tag.toUpperCase()}`);
    // One payee can be marked paid alone (decision 0965): its row asks first, since it emails.
    await batch.getByRole('button', { name: 'Payees' }).click();
    const payee = adminPage.getByTestId('payout-payee-row').filter({ hasText: '$100.00' }).first();
    await expect(payee).toContainText('not paid', { timeout: limit(45_000) });
    await payee.getByRole('button', { name: 'Mark paid' }).click();
    await expect(adminPage.getByRole('dialog', { name: 'Mark payee paid' })).toContainText(/as of today emails them/);
    await adminPage.getByRole('button', { name: 'Cancel' }).click();
    await batch.getByRole('button', { name: 'Hide payees' }).click();
    await batch.getByRole('button', { name: 'Mark paid' }).click();
    await adminPage.getByLabel('Payment reference').fill(`ACH-${tag}`);
    await adminPage.getByRole('button', { name: /^Mark paid and email / }).click();
    await expect(batch).toContainText(`paid (ACH-${tag})`);
    await waitForMail(ready.email, /Your payout of \$100\.00 was sent/);

    // The recruiter's statement for the year shows it.
    await page.reload();
    await expect(page.getByTestId('statement-line')).toContainText(`$100.00 · ACH-${tag}`, { timeout: limit(45_000) });
    await expect(page.getByTestId('statement-total')).toContainText('$100.00');
  } finally {
    await mobile.close();
    await admin.dispose();
  }
});

/**
 * Issue 47, items 4 and 5: the owner finishes a payout in the console alone. A commission whose rule
 * holds 0 days, recorded from the console today, is approved at once (another, still on hold, gives
 * a warning that says when); no payment settings yet: the screen says so, the owner sets them; a
 * batch, its NACHA file, marked paid; the year's 1099-NEC threshold and report; a returned payment.
 * In this file: it creates a batch (see above).
 */
for (const size of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the owner sets payment settings, approves a same-day commission, pays a batch and downloads the 1099-NEC (${size.width} px)`, async ({
    browser,
  }) => {
    test.setTimeout(limit(300_000));
    const baseURL = process.env.E2E_BASE_URL!;
    const admin = await playwrightRequest.newContext({ baseURL });
    const phone = size.width < 500;
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      ...(phone ? { isMobile: true, hasTouch: true } : {}),
    });
    const page = await context.newPage();
    const shot = (name: string) =>
      page.screenshot({ path: `test-results/issue47-${name}-${size.width}.png`, fullPage: true });
    try {
      const tag = Date.now().toString(36);
      const name = `Rhea Recruiter ${tag}`;
      const recruiterCtx = await playwrightRequest.newContext({ baseURL });
      await approvedDealer(recruiterCtx, admin, { fullName: name, companyName: `Rhea Co ${tag}` });
      const details = await recruiterCtx.put('/api/dealer/payout-profile', {
        data: { ...payoutDetails(name), accountNumber: '5550001234' },
      });
      expect(details.status(), await details.text()).toBe(200);
      const referred = await approvedDealer(recruiterCtx, admin, {
        referredBy: await referenceTo(recruiterCtx, `Rhea Co ${tag}`),
      });
      await recruiterCtx.dispose();
      // One order under a rule that holds 30 days (earned commissions keep their rule), then the rule holds 0 days.
      const rule = (holdDays: number) =>
        admin.put('/api/admin/commission-rules/Affiliate', {
          data: { type: 'percent', value: '10.00', appliesTo: 'all', holdDays },
        });
      expect((await rule(30)).ok()).toBe(true);
      const held = await admin.post(`/api/admin/dealers/${referred.id}/orders`, {
        data: { orderId: `H-${tag}`, amount: '500.00', orderedAt: new Date().toISOString() },
      });
      expect(held.status(), await held.text()).toBe(200);
      expect((await rule(0)).ok()).toBe(true);
      // No payment settings yet (this file runs alone: no other batch is being paid now).
      await sql('delete from payment_settings');

      await signInAs(page, ADMIN.username);
      // The dealer's own address, opened directly (item 6): record today's order from the console.
      await page.goto(`/admin/dealers/${referred.id}`);
      const orders = page.getByTestId('dealer-orders');
      await orders.getByLabel('Order id').fill(`S-${tag}`);
      await orders.getByLabel('Amount ($)').fill('1000');
      await orders.getByRole('button', { name: 'Record order' }).click();
      await expect(orders).toContainText(`S-${tag}`, { timeout: limit(45_000) });

      // Approving: the one on hold is a warning that says when the hold ends; today's is approved.
      await page.goto('/admin/commissions');
      await page.getByRole('button', { name: `Approve commission on order H-${tag}` }).click();
      const warning = page.getByRole('alert').filter({ hasText: 'No commission approved' });
      await expect(warning).toContainText('1 commission skipped');
      await expect(warning).toContainText(/On hold until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
      await shot('approve-warning');
      await page.getByRole('button', { name: `Approve commission on order S-${tag}` }).click();
      await expect(page.getByRole('alert').filter({ hasText: '1 commission approved' })).toBeVisible();
      await expect(page.getByRole('button', { name: `Approve commission on order S-${tag}` })).toHaveCount(0, {
        timeout: limit(45_000),
      });

      // Payouts: the missing settings are said before anything is refused.
      await page.goto('/admin/payouts');
      await expect(page.getByTestId('payouts-needs-settings')).toContainText('Payment settings are not set');
      await expect(page.getByTestId('payment-settings-missing')).toBeVisible();
      const tax = page.getByTestId('tax-card');
      await expect(tax.getByTestId('tax-needs-settings')).toContainText('Set the payment settings above first');
      await expect(tax.getByRole('button', { name: 'Download 1099-NEC report' })).toBeDisabled();
      expect(await seriousViolations(page)).toEqual([]);
      await shot('payouts-no-settings');

      const form = page.getByTestId('payment-settings');
      const field = (label: string) => form.getByRole('textbox', { name: label, exact: false });
      await field('Company name').fill('Dealer Network');
      await field('Company id').fill('123');
      await field('Originating bank routing number').fill('011000015');
      await field('Originating bank name').fill('First Test Bank');
      await field('Payer name').fill('Dealer Network LLC');
      await field('Payer EIN').fill('12-3456789');
      await field('Payer street address').fill('9 Market St');
      await form.getByRole('textbox', { name: 'City' }).fill('Austin');
      await form.getByRole('textbox', { name: 'State' }).fill('TX');
      await form.getByRole('textbox', { name: 'ZIP code' }).fill('78702');
      await form.getByRole('button', { name: 'Save payment settings' }).click();
      await expect(form).toContainText('Company id must be 10 characters');
      await field('Company id').fill('1123456789');
      await form.getByRole('button', { name: 'Save payment settings' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Payment settings saved' })).toBeVisible();
      await expect(form.getByTestId('payment-settings-saved')).toContainText(`Last saved by ${ADMIN.username} on`);
      await expect(page.getByTestId('payouts-needs-settings')).toHaveCount(0);
      await expect(tax.getByTestId('tax-needs-settings')).toHaveCount(0);

      // A batch, its bank file, marked paid.
      await page.getByRole('button', { name: 'Create payout batch' }).click();
      const batch = page.getByTestId('payout-row').first();
      await expect(batch).toContainText('created', { timeout: limit(45_000) });
      const [download] = await Promise.all([page.waitForEvent('download'), batch.getByTestId('download-ach').click()]);
      const ach = readFileSync((await download.path())!, 'utf8');
      const records = ach.split('\r\n').filter(Boolean);
      expect(records.every((r) => r.length === 94)).toBe(true);
      expect(ach.toUpperCase()).toContain('DEALER NETWORK');
      expect(records.find((r) => r.startsWith('6') && r.includes('5550001234'))?.slice(29, 39)).toBe('0000010000');
      await batch.getByRole('button', { name: 'Mark paid' }).click();
      await page.getByLabel('Payment reference').fill(`ACH-${tag}`);
      await page.getByRole('button', { name: /^Mark paid and email / }).click();
      await expect(batch).toContainText(`paid (ACH-${tag})`, { timeout: limit(45_000) });

      // The 1099-NEC: this year's threshold set low enough for this payee, then the report.
      const year = new Date().getFullYear();
      await tax.getByRole('textbox', { name: `${year} threshold ($)` }).fill('50.00');
      await tax.getByRole('button', { name: 'Save threshold' }).click();
      await expect(tax.getByTestId('tax-threshold')).toContainText(`${year} threshold: $50.00 (set by an owner)`);
      const [report] = await Promise.all([
        page.waitForEvent('download'),
        tax.getByRole('button', { name: 'Download 1099-NEC report' }).click(),
      ]);
      const csv = readFileSync((await report.path())!, 'utf8');
      expect(csv).toContain('Box 1 Nonemployee Compensation');
      expect(csv).toMatch(new RegExp(`${year},Dealer Network LLC,12-3456789,.*${name}.*,100\\.00,`));
      await shot('payouts-paid');

      // The bank returned it: recorded from the batch's payees, approved again, the payee emailed.
      await batch.getByRole('button', { name: 'Payees' }).click();
      const payee = page.getByTestId('payout-payee-row').filter({ hasText: name });
      await payee.getByRole('button', { name: 'Record return' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a returned payment' });
      await expect(dialog).toContainText(`The bank returned the payment of $100.00 to ${name}`);
      expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('textbox', { name: 'Return code' }).fill('R01');
      await dialog.getByRole('button', { name: 'Record return' }).click();
      await expect(page.getByRole('alert').filter({ hasText: `Return recorded for ${name}` })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    } finally {
      // The law's threshold again for the other specs.
      await admin.put(`/api/admin/tax/thresholds/${new Date().getFullYear()}`, {
        data: { year: new Date().getFullYear(), amount: '2000.00' },
      });
      await context.close();
      await admin.dispose();
    }
  });
}
