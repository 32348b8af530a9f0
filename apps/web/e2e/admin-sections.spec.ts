import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, approveAsAdmin, referenceTo, uniqueEmail } from './support/accounts';
import { adminSection } from './support/admin';
import { limit } from './support/time';

// The admin console as sections (issue 34): each section's filters, sort and page are in its URL,
// and on a phone the navigation is a drawer behind a burger.

const PAGE_SIZE = 20; // COMMISSIONS_PAGE_SIZE

/** The visible buttons of the page's main part whose box reaches past the viewport's right edge. */
const offScreenButtons = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main button')]
      .filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().right > window.innerWidth)
      .map((b) => b.textContent),
  );

test('the Commissions section keeps its filters and page in the URL: a reload finds the same view', async ({
  page,
}) => {
  test.setTimeout(limit(240_000));
  const baseURL = process.env.E2E_BASE_URL!;
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    const tag = Date.now().toString(36);
    // A recruiter, a dealer they referred, and more of the referred dealer's orders than a page
    // holds: each earns the recruiter a pending commission (the rule partner-program.spec sets too).
    const recruiterEmail = uniqueEmail(`recruiter${tag}`);
    const recruiterCompany = `Rex Attic ${tag}`;
    await applyAsDealer(admin, recruiterEmail, { fullName: `Rex Recruiter ${tag}`, companyName: recruiterCompany });
    const recruiterId = await approveAsAdmin(admin, recruiterEmail);
    const referredEmail = uniqueEmail(`referred${tag}`);
    // The signup names its referrer by the picker's opaque reference (issue 35, finding 8).
    await applyAsDealer(admin, referredEmail, {
      fullName: `Rae Referred ${tag}`,
      referredBy: await referenceTo(admin, recruiterCompany),
    });
    const referredId = await approveAsAdmin(admin, referredEmail);
    const rule = await admin.put('/api/admin/commission-rules/Affiliate', {
      data: { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 },
    });
    expect(rule.ok(), await rule.text()).toBe(true);
    const orders = PAGE_SIZE + 2;
    for (let i = 1; i <= orders; i++) {
      const res = await admin.post(`/api/admin/dealers/${referredId}/orders`, {
        data: { orderId: `S-${tag}-${i}`, amount: `${100 + i}.00`, orderedAt: new Date().toISOString() },
      });
      expect(res.status(), await res.text()).toBeLessThan(300);
    }

    expect((await page.request.post('/api/admin/login', { data: ADMIN })).ok()).toBe(true);
    await page.goto('/admin');
    await adminSection(page, 'Orders & commissions').click();
    await expect(page).toHaveURL(/\/admin\/commissions$/);

    // Filter: pending, this recruiter (picked from the server's search), then page 2.
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'pending', exact: true }).click();
    await expect(page).toHaveURL(/[?&]status=pending/);
    const recruiter = page.getByRole('combobox', { name: 'Recruiter', exact: true });
    await recruiter.fill(recruiterEmail);
    await page.getByRole('option', { name: new RegExp(`Rex Recruiter ${tag}`) }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]recruiter=${recruiterId}`));
    const rows = page.getByTestId('admin-commission-row');
    await expect(rows).toHaveCount(PAGE_SIZE, { timeout: limit(45_000) });
    await expect(page.getByTestId('commission-totals')).toContainText(`${orders} entries`);
    await page.getByRole('navigation', { name: 'Commission pages' }).getByRole('button', { name: '2' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(rows).toHaveCount(orders - PAGE_SIZE);
    const url = page.url();

    // The reload: the same filters in the controls, the same page, the same rows.
    await page.reload();
    expect(page.url()).toBe(url);
    await expect(rows).toHaveCount(orders - PAGE_SIZE, { timeout: limit(45_000) });
    await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('pending');
    await expect(recruiter).toHaveValue(new RegExp(`Rex Recruiter ${tag}`));
    await expect(
      page.getByRole('navigation', { name: 'Commission pages' }).getByRole('button', { name: '2' }),
    ).toHaveAttribute('data-active', 'true');
    for (const row of await rows.all()) {
      await expect(row).toContainText(`Rex Recruiter ${tag}`);
      await expect(row).toContainText('pending');
    }

    // Back returns to page 1 of the same filter.
    await page.goBack();
    await expect(page).not.toHaveURL(/[?&]page=2/);
    await expect(page).toHaveURL(new RegExp(`[?&]recruiter=${recruiterId}`));
    await expect(rows).toHaveCount(PAGE_SIZE);
  } finally {
    await admin.dispose();
  }
});

test("on a phone (390 px) the navigation is a drawer, and a dealer's actions open from it", async ({ page }) => {
  const tag = `nav${Date.now().toString(36)}`;
  const email = uniqueEmail(tag);
  await applyAsDealer(page.request, email, { fullName: `Nora Phone ${tag}` });
  await page.setViewportSize({ width: 390, height: 844 });
  expect((await page.request.post('/api/admin/login', { data: ADMIN })).ok()).toBe(true);

  // Another section first: the side navigation is collapsed behind the burger.
  await page.goto('/admin/calls');
  const burger = page.getByRole('button', { name: 'Open the admin sections' });
  await expect(burger).toBeVisible();
  await expect(adminSection(page, 'Dealers')).toHaveCount(0);

  // Every section fits the phone's width (no action column off-screen), each reached from the drawer.
  for (const name of ['Applications', 'Orders & commissions', 'Payouts', 'Activity', 'Team', 'Content', 'Calls']) {
    await burger.click();
    await adminSection(page, name).click();
    await expect(page.getByRole('dialog', { name: 'Admin sections' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
    // Not inside a box that scrolls sideways either: every button's right edge is on screen.
    expect(await offScreenButtons(page), name).toEqual([]);
  }

  // The dealer from the drawer: Dealers, the search, then the card's actions, each on screen.
  await burger.click();
  await adminSection(page, 'Dealers').click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByLabel('Search').fill(email);
  const card = page.getByTestId('dealer-row').filter({ hasText: email });
  await expect(card).toHaveCount(1);
  for (const name of ['Approve', 'Reject', 'Grant Access', 'Link Referral', 'Record order', 'History']) {
    const button = card.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, name).toBe(true);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await offScreenButtons(page)).toEqual([]);
  await card.getByRole('button', { name: 'History', exact: true }).click();
  await expect(page.getByRole('dialog', { name: `History of Nora Phone ${tag}` })).toBeVisible();
});
