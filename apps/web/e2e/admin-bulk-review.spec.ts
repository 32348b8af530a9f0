import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { waitForMail } from './support/mail';
import { sql } from './support/site';

// Review at scale (issue 14): select all pending matching a search, reject with one reason,
// Undo (nothing changed, nothing sent), reject again (each applicant gets the reason by email).

const COUNT = 55; // more than a page (50), so "all N matching this filter" is the selection

async function signIn(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
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
    .map((f) => JSON.parse(readFileSync(join(process.env.E2E_MAIL_DIR!, f), 'utf8')) as { to: string[] })
    .filter((m) => m.to.includes(email));

const statuses = async (tag: string) =>
  (
    await sql<{ status: string; n: string }>(
      `select status, count(*)::text as n from dealers where email like $1 group by 1 order by 1`,
      [`bulk.${tag}.%`],
    )
  ).map((r) => `${r.status}:${r.n}`);

async function rejectAllMatching(page: Page, tag: string, reason: string) {
  await page.goto(`/admin?q=${tag}&status=pending`);
  await expect(page.getByTestId('dealer-row')).toHaveCount(50, { timeout: 30_000 });
  await page.getByRole('checkbox', { name: 'Select this page' }).first().check();
  await page.getByRole('button', { name: `Select all ${COUNT} matching this filter` }).click();
  await expect(page.getByTestId('bulk-bar')).toContainText(`${COUNT} dealers selected (all matching this filter)`);
  await page.getByRole('button', { name: 'Reject selected' }).click();
  await page.getByLabel('Reason (sent to each applicant)').fill(reason);
  await page.getByRole('button', { name: `Reject ${COUNT} dealers` }).click();
  await expect(page.getByText(`${COUNT} changed`, { exact: true })).toBeVisible();
}

test('a reviewer rejects all pending matching a search, undoes it, then rejects again and each applicant is told why', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const tag = `br${Date.now().toString(36)}`;
  const emails = await seed(tag, COUNT);
  await signIn(page);

  await rejectAllMatching(page, tag, 'We are not recruiting in your area yet');
  expect(await statuses(tag)).toEqual([`rejected:${COUNT}`]);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undone', { exact: true })).toBeVisible();
  expect(await statuses(tag)).toEqual([`pending:${COUNT}`]);
  // The window (10 s) and its grace pass: nothing was sent, nothing is queued.
  await page.waitForTimeout(13_000);
  for (const e of emails) expect(mailsTo(e)).toHaveLength(0);
  const queued = await sql(`select id from email_outbox where to_address like $1`, [`bulk.${tag}.%`]);
  expect(queued).toHaveLength(0);

  await rejectAllMatching(page, tag, 'We are not recruiting in your area yet');
  expect(await statuses(tag)).toEqual([`rejected:${COUNT}`]);
  for (const e of emails) {
    const mail = await waitForMail(e, /not approved/, 30_000);
    expect(mail.text).toContain('We are not recruiting in your area yet');
  }
  for (const e of emails) expect(mailsTo(e)).toHaveLength(1);
});

test('on a phone (390 px) the dealers are cards and every action is on screen', async ({ page }) => {
  test.setTimeout(90_000);
  const tag = `ph${Date.now().toString(36)}`;
  await seed(tag, 2);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`/admin?q=${tag}`);
  const cards = page.getByTestId('dealer-row');
  await expect(cards).toHaveCount(2, { timeout: 30_000 });
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
