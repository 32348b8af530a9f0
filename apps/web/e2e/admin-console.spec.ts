import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, approveAsAdmin, uniqueEmail } from './support/accounts';
import { adminSection } from './support/admin';
import { linkIn, waitForMail } from './support/mail';
import { sql } from './support/site';

const FORM = 'https://docs.google.com/forms/d/e/e2e-admin-console/viewform';
const EMBED = '<iframe src="https://player.vimeo.com/video/76979871?h=abc123def0" width="640"></iframe>';
const XSS_NAME = '<img src=x onerror=alert(1)>';

const row = (page: Page, email: string) => page.getByTestId('dealer-row').filter({ hasText: email });
const toast = (page: Page, title: string) => expect(page.getByText(title, { exact: true }).first()).toBeVisible();

const select = (page: Page, label: string) => page.locator(`input[aria-label="${label}"]`);

async function pick(page: Page, label: string, option: string | RegExp) {
  await select(page, label).click();
  await page.getByRole('option', { name: option }).click();
}

test('an admin manages dealers, calls, forms and videos end to end', async ({ page, browser }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const tag = Date.now().toString(36);
  const alice = uniqueEmail(`alice${tag}`);
  const bob = uniqueEmail(`bob${tag}`);
  const carol = uniqueEmail(`carol${tag}`);
  await applyAsDealer(page.request, alice, { fullName: `Alice ${tag}`, companyName: 'Attic Pros' });
  await applyAsDealer(page.request, bob, { fullName: `Bob ${tag}` });
  await applyAsDealer(page.request, carol, { fullName: `Carol ${tag}` });
  const xss = uniqueEmail('xss');
  await applyAsDealer(page.request, xss, { fullName: XSS_NAME });
  const callEmail = uniqueEmail(`call${tag}`);
  await sql(
    `insert into call_schedules (name, email, phone, preferred_date, preferred_time, updated_at)
     values ($1, $2, '5125550100', '2031-06-01', 'morning', now())`,
    [`Caller ${tag}`, callEmail],
  );

  try {
    // Signed out: the admin login.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/admin$/);

    // Cards. The console's first load fetches its code and the current user: under a loaded CI
    // machine that has taken more than the default 10 s.
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    for (const t of ['Total Dealers', 'Applications', 'Approved Dealers', 'Call Requests']) {
      await expect(page.getByTestId(`card-${t}`)).toBeVisible();
    }
    await expect(page.getByText('Awaiting approval')).toBeVisible();
    await expect(page.getByText('Active dealer accounts')).toBeVisible();

    // Search and filter.
    await page.getByLabel('Search').fill(tag);
    await expect(page.getByTestId('dealer-row')).toHaveCount(3);
    await expect(page.getByRole('tab', { name: 'Pending (3)' })).toBeVisible();
    await page.getByLabel('Search').fill(`alice${tag}`);
    await expect(page.getByTestId('dealer-row')).toHaveCount(1);
    await page.getByLabel('Search').fill(tag);
    await expect(page.getByTestId('dealer-row')).toHaveCount(3);

    // Approve: the dealer receives the set-password email.
    await row(page, alice).getByRole('button', { name: 'Approve' }).click();
    await toast(page, 'Dealer approved');
    const mail = await waitForMail(alice, /approved/);
    await expect(page.getByRole('tab', { name: 'Approved (1)' })).toBeVisible();

    // Reject with a reason.
    await row(page, bob).getByRole('button', { name: 'Reject' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Dealer Application' });
    const rejectButton = reject.getByRole('button', { name: 'Reject Application' });
    await expect(rejectButton).toBeDisabled();
    await reject.getByLabel('Reason').fill('   ');
    await expect(rejectButton).toBeDisabled();
    await reject.getByLabel('Reason').fill('No installer license on file');
    await rejectButton.click();
    await toast(page, 'Dealer application rejected');
    await expect(row(page, bob).getByText('Rejection reason: No installer license on file')).toBeVisible();

    // Tier and status.
    await pick(page, `Tier of Carol ${tag}`, 'Preferred');
    await toast(page, 'Dealer tier updated');
    await expect(select(page, `Tier of Carol ${tag}`)).toHaveValue('Preferred');
    await pick(page, `Status of Carol ${tag}`, 'inactive');
    // The newest notice replaces the tier's at once, not after its Undo window (300 s on the e2e
    // server, so a limit well under it tells the two apart however slow the machine is).
    await expect(page.getByText('Dealer status updated', { exact: true })).toBeVisible();
    await expect(page.getByText('Dealer tier updated', { exact: true })).toHaveCount(0);
    await expect(select(page, `Status of Carol ${tag}`)).toHaveValue('inactive');

    // Link a referral with the searchable picker.
    await row(page, carol).getByRole('button', { name: 'Link Referral' }).click();
    const link = page.getByRole('dialog', { name: 'Link Referral' });
    const linkButton = link.getByRole('button', { name: 'Link Referral' });
    await expect(linkButton).toBeDisabled();
    await link.getByLabel('Referring dealer').fill(`alice${tag}`);
    await page.getByRole('option', { name: new RegExp(`Alice ${tag}`) }).click();
    await linkButton.click();
    await toast(page, 'Referral linked');
    await expect(row(page, carol).getByText(`Referred by Alice ${tag}`)).toBeVisible();

    // User text is text.
    await page.getByLabel('Search').fill(xss);
    await expect(row(page, xss).getByText(XSS_NAME, { exact: true })).toBeVisible();
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    // The CSV.
    await page.getByLabel('Search').fill(tag);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`dealers-export-${new Date().toISOString().slice(0, 10)}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('Full Name');
    for (const email of [alice, bob, carol]) expect(csv).toContain(email);
    expect(csv).toContain('No installer license on file');
    await toast(page, 'Dealers exported');

    // Calls: mark one completed.
    await adminSection(page, 'Calls').click();
    const call = page.getByTestId('call-row').filter({ hasText: callEmail });
    await expect(call.getByText('scheduled')).toBeVisible();
    await call.getByRole('button', { name: 'Mark Completed' }).click();
    await toast(page, 'Call status updated');
    await expect(call.getByText('completed')).toBeVisible();

    // First order form for Affiliates, required.
    await adminSection(page, 'Content').click();
    const card = page.getByTestId('form-Affiliate');
    await card.getByLabel('Google Form URL').fill(`  ${FORM}  `);
    await card.getByLabel('Required before the first order').check();
    await card.getByRole('button', { name: 'Update' }).click();
    await toast(page, 'Affiliate form configuration updated');
    await expect(page.getByTestId('form-Affiliate').locator('iframe')).toHaveAttribute('src', `${FORM}?embedded=true`);
    await expect(page.getByTestId('form-Authorized').getByLabel('Required before the first order')).toBeDisabled();

    // The intro video (the same section: Content).
    await page.getByTestId('video-intro_video').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit intro_video' });
    await edit.getByLabel('Vimeo embed code').fill(EMBED);
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Video updated');
    await expect(page.getByTestId('video-intro_video').getByText('Configured')).toBeVisible();
    expect(dialogs).toEqual([]);

    // What the approved dealer and a visitor now see.
    const dealer = await browser.newContext();
    const dp = await dealer.newPage();
    await dp.route('https://player.vimeo.com/**', (r) =>
      r.fulfill({ status: 200, contentType: 'text/html', body: '' }),
    );
    await dp.route('https://docs.google.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '' }));
    const token = new URL(linkIn(mail, '/login')).searchParams.get('token');
    const setup = await dp.request.post('/api/dealer/setup-password', { data: { token, password: 'dealer-pass-1' } });
    expect(setup.ok()).toBe(true);
    await dp.goto('/dashboard');
    await expect(dp.locator('iframe[title="First order form"]')).toHaveAttribute('src', `${FORM}?embedded=true`);
    await dp.goto('/admin');
    await expect(dp.getByText('Access Denied: You need administrator privileges to access this page.')).toBeVisible();
    await dealer.close();
    // A visitor (a signed-in dealer is sent on to the dashboard).
    const visitor = await browser.newContext();
    const vp = await visitor.newPage();
    await vp.route('https://player.vimeo.com/**', (r) =>
      r.fulfill({ status: 200, contentType: 'text/html', body: '' }),
    );
    await vp.goto('/');
    await expect(vp.getByTestId('video-intro_video')).toHaveAttribute(
      'src',
      'https://player.vimeo.com/video/76979871?h=abc123def0&dnt=1',
    );
    await visitor.close();
  } finally {
    await sql(`update landing_videos set vimeo_embed_code = null where video_key = 'intro_video'`);
    await sql(`update first_order_forms set form_url = null, is_required = true where tier = 'Affiliate'`);
  }
});

test('a bookmarked admin view opens filtered, and Back returns to the previous filter', async ({ page }) => {
  const tag = `url${Date.now().toString(36)}`;
  const approved = uniqueEmail(`ann${tag}`);
  const pending = uniqueEmail(`ben${tag}`);
  await applyAsDealer(page.request, approved, { fullName: `Ann ${tag}` });
  await applyAsDealer(page.request, pending, { fullName: `Ben ${tag}` });
  // Signs the page's context in as the admin.
  await approveAsAdmin(page.request, approved);

  // The bookmark: search and status filter come from the URL.
  await page.goto(`/admin?status=pending&q=${tag}`);
  // The first page of the app on a cold cache: the shell, the route's auth check, the console's code.
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByLabel('Search')).toHaveValue(tag);
  await expect(page.getByRole('tab', { name: /^Pending/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('dealer-row')).toHaveCount(1);
  await expect(row(page, pending)).toBeVisible();

  // Another filter is a new history entry.
  await page.getByRole('tab', { name: /^Approved/ }).click();
  await expect(page).toHaveURL(/[?&]status=approved/);
  await expect(row(page, approved)).toBeVisible();
  await expect(page.getByTestId('dealer-row')).toHaveCount(1);

  // Back: the previous filter, search kept.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]status=pending/);
  await expect(page.getByRole('tab', { name: /^Pending/ })).toHaveAttribute('aria-selected', 'true');
  await expect(row(page, pending)).toBeVisible();
  await expect(page.getByTestId('dealer-row')).toHaveCount(1);
  await expect(page.getByLabel('Search')).toHaveValue(tag);

  // Typing a search updates the URL; Back restores the earlier search in the box and the list.
  await page.getByLabel('Search').fill(`ben${tag}`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=ben${tag}`));
  await page.goBack();
  await expect(page.getByLabel('Search')).toHaveValue(tag);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`));

  // The open section is in the URL too.
  await adminSection(page, 'Calls').click();
  await expect(page).toHaveURL(/\/admin\/calls/);
  await page.goBack();
  await expect(adminSection(page, 'Dealers')).toHaveAttribute('aria-current', 'page');
  await page.goto('/admin?tab=calls');
  await expect(adminSection(page, 'Calls')).toHaveAttribute('aria-current', 'page');

  // A hand-edited URL with unknown values falls back to the defaults.
  await page.goto(`/admin?status=bogus&page=-3&q=${tag}`);
  await expect(page.getByRole('tab', { name: /^All/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('dealer-row')).toHaveCount(2);
});
