import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { invitedAdmin } from './support/accounts';
import { adminSection } from './support/admin';
import { waitForMail } from './support/mail';
import { sql } from './support/site';
import { limit } from './support/time';

// Review at scale (issue 14): select all pending matching a search, reject with one reason,
// Undo (nothing changed, nothing sent), reject again (each applicant gets the reason by email).

const COUNT = 55; // more than a page (50), so "all N matching this filter" is the selection

async function signIn(page: Page, account: { username: string; password: string } = ADMIN) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** `n` pending applicants named with `tag`, straight into the database. */
async function seed(tag: string, n: number) {
  await sql(
    `insert into dealers (email, full_name, company_name, tier, status, phone_e164, address_json, updated_at)
     select 'bulk.' || $1 || '.' || i || '@example.com', 'Bulk ' || $1 || ' ' || i, 'Bulk Co', 'Affiliate', 'pending',
       '+15551234567', '{"street":"1 Main St","city":"Austin","state":"TX","zipCode":"78701","country":"US"}'::jsonb, now()
     from generate_series(1, $2::int) as i`,
    [tag, n],
  );
  return Array.from({ length: n }, (_, i) => `bulk.${tag}.${i + 1}@example.com`);
}

const mailsTo = (email: string) =>
  readdirSync(process.env.E2E_MAIL_DIR!)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(process.env.E2E_MAIL_DIR!, f), 'utf8')) as { to: string[]; text: string })
    .filter((m) => m.to.includes(email));

/** The tagged applicants by status and rejection reason, e.g. `pending:-:55` (the database's state, not the page's). */
const statuses = async (tag: string) =>
  (
    await sql<{ status: string; reason: string; n: string }>(
      `select status, coalesce(rejection_reason, '-') as reason, count(*)::text as n
       from dealers where email like $1 group by 1, 2 order by 1, 2`,
      [`bulk.${tag}.%`],
    )
  ).map((r) => `${r.status}:${r.reason}:${r.n}`);

/** The tagged applicants' emails in the outbox, queued or sent. */
const outbox = (tag: string) =>
  sql<{ to_address: string; text_body: string }>(
    `select to_address, text_body from email_outbox where to_address like $1`,
    [`bulk.${tag}.%`],
  );

async function rejectAllMatching(page: Page, tag: string, reason: string) {
  // Only this test's applicants: the search is its tag, whatever other specs add to the list meanwhile.
  await page.goto(`/admin?q=${tag}&status=pending`);
  await expect(page.getByRole('tab', { name: `Pending (${COUNT})` })).toBeVisible();
  const rows = page.getByTestId('dealer-row');
  await expect(rows).toHaveCount(50);
  await expect(rows.filter({ hasNotText: `Bulk ${tag} ` })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Select this page' }).first().check();
  await page.getByRole('button', { name: `Select all ${COUNT} matching this filter` }).click();
  await expect(page.getByTestId('bulk-bar')).toContainText(`${COUNT} dealers selected (all matching this filter)`);
  await page.getByRole('button', { name: 'Reject selected' }).click();
  await page.getByLabel('Reason (sent to each applicant)').fill(reason);
  await page.getByRole('button', { name: `Reject ${COUNT} dealers` }).click();
  await expect(page.getByText(`${COUNT} changed`, { exact: true })).toBeVisible();
  // The database, not only the page, says every one is rejected with the reason.
  await expect.poll(() => statuses(tag)).toEqual([`rejected:${reason}:${COUNT}`]);
}

test('a reviewer rejects all pending matching a search, undoes it, then rejects again and each applicant is told why', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(limit(240_000));
  const tag = `br${Date.now().toString(36)}`;
  const emails = await seed(tag, COUNT);
  // A reviewer, invited by the owner as the Team tab does: not the e2e owner.
  const reviewer = await invitedAdmin(baseURL, 'reviewer');
  await signIn(page, reviewer);
  const [me] = await sql<{ role: string }>('select role from admins where username = $1', [reviewer.username]);
  expect(me?.role).toBe('reviewer');
  await expect(adminSection(page, 'Activity')).toBeVisible();
  await expect(adminSection(page, 'Team')).toHaveCount(0);

  const undone = `Undone reason ${tag}`;
  const final = `We are not recruiting in your area yet (${tag})`;
  await rejectAllMatching(page, tag, undone);
  // The decision's emails wait out the undo window in the outbox.
  expect(await outbox(tag)).toHaveLength(COUNT);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undone', { exact: true })).toBeVisible();
  // Nothing changed: pending again, no reason kept; nothing will be sent: the queued emails are gone.
  expect(await statuses(tag)).toEqual([`pending:-:${COUNT}`]);
  expect(await outbox(tag)).toHaveLength(0);

  await rejectAllMatching(page, tag, final);
  // One email per applicant, with the second reason. An applicant's emails leave in the order
  // they were queued (the outbox's claim), so had an email of the undone rejection survived, it
  // would have arrived before this one: none did, and none waits in the outbox.
  for (const e of emails) {
    const mail = await waitForMail(e, /not approved/, limit(60_000));
    expect(mail.text).toContain(final);
  }
  for (const e of emails) {
    const got = mailsTo(e);
    expect(got).toHaveLength(1);
    expect(got[0]!.text).not.toContain(undone);
  }
  const queued = await outbox(tag);
  expect(queued).toHaveLength(COUNT);
  expect(queued.every((m) => m.text_body.includes(final) && !m.text_body.includes(undone))).toBe(true);

  // A dealer's timeline links to the Activity section filtered to that dealer: its two rejections and
  // the undo, each by this reviewer, and no other dealer's rows.
  const [first] = await sql<{ id: string }>('select id::text as id from dealers where email = $1', [emails[0]]);
  // Searched by its email: the tag matches more dealers than a page holds, in no fixed order.
  await page.goto(`/admin?q=${encodeURIComponent(emails[0]!)}&status=rejected`);
  await page.getByTestId('dealer-row').filter({ hasText: emails[0]! }).getByRole('button', { name: 'History' }).click();
  await page.getByRole('link', { name: 'All activity of this dealer' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/activity\\?(.*&)?dealer=${first!.id}(&|$)`));
  await expect(page.getByLabel('Dealer ID')).toHaveValue(first!.id);
  const activity = page.getByTestId('activity-row');
  await expect(activity.filter({ hasText: 'Dealer rejected' })).toHaveCount(2);
  await expect(activity.filter({ hasText: 'Dealer decision undone' })).toHaveCount(1);
  await expect(activity.filter({ hasNotText: emails[0]! })).toHaveCount(0);
  await expect(activity.filter({ hasText: 'Dealer rejected' }).filter({ hasText: reviewer.username })).toHaveCount(2);
});

test('on a phone (390 px) the dealers are cards and every action is on screen', async ({ page }) => {
  const tag = `ph${Date.now().toString(36)}`;
  await seed(tag, 2);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`/admin?q=${tag}`);
  const cards = page.getByTestId('dealer-row');
  await expect(cards).toHaveCount(2);
  const card = cards.first();
  for (const name of ['Approve', 'Reject', 'Grant Access', 'Link Referral', 'History']) {
    const button = card.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  }
  for (const label of ['Tier of', 'Status of', 'Select']) {
    const control = card.getByLabel(new RegExp(`^${label} Bulk ${tag}`)).first();
    await expect(control).toBeInViewport();
  }
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  // A card's action works on a phone too: approve, with its Undo in the notification.
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
});

test('a search matching more than 1,000 dealers shows its newest 1,000, says so, and offers no "select all"', async ({
  page,
}) => {
  const tag = `wd${Date.now().toString(36)}`;
  const emails = await seed(tag, 1_001);
  await signIn(page);
  await page.goto(`/admin?q=${tag}&status=pending`);
  await expect(page.getByTestId('search-capped')).toContainText('More than 1,000 dealers match this search');
  // Every count is a lower bound: the window's, with a '+'.
  await expect(page.getByRole('tab', { name: 'All (1000+)' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending (1000+)' })).toBeVisible();
  await expect(page.getByText('1000+ dealers', { exact: true })).toBeVisible();
  const rows = page.getByTestId('dealer-row');
  await expect(rows).toHaveCount(50);
  await page.getByRole('checkbox', { name: 'Select this page' }).first().check();
  await expect(page.getByTestId('bulk-bar')).toContainText('50 dealers selected');
  await expect(page.getByRole('button', { name: /^Select all/ })).toHaveCount(0);
  // A narrower search is exact again.
  await page.goto(`/admin?q=${encodeURIComponent(emails[0]!)}`);
  await expect(page.getByText('1 dealer', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'All (1)' })).toBeVisible();
  await expect(page.getByTestId('search-capped')).toHaveCount(0);
});
