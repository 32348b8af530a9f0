import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { signInAs } from './support/admin';
import { choose, sql } from './support/site';

// Filtered export (issue 14, docs/decisions/0730-filtered-export.md): the CSV has the table's
// search, status tab and sort, and the columns picked, which are remembered for the admin.

const ADDRESS = '{"street":"1 Main St","city":"Austin","state":"TX","zipCode":"78701","country":"US"}';

/** A reviewer of its own (the e2e admin's password): its column choice cannot meet another spec's exports. */
async function newReviewer(tag: string) {
  const username = `exporter.${tag}`;
  await sql(
    `insert into admins (username, password_hash, role, updated_at)
     select $1, password_hash, 'reviewer', now() from admins where username = $2`,
    [username, ADMIN.username],
  );
  return username;
}

const savedColumns = async (username: string) =>
  (
    await sql<{ columns: string[] | null }>(
      `select p.export_columns as columns from admin_preferences p join admins a on a.id = p.admin_id
       where a.username = $1`,
      [username],
    )
  )[0]?.columns ?? null;

test('a reviewer exports the searched, filtered and sorted dealers with two picked columns, and the choice is remembered', async ({
  page,
}) => {
  const tag = `ex${Date.now().toString(36)}`;
  // Three pending dealers match the search, one approved one matches it too (the tab leaves it
  // out) and one pending dealer does not match it. Emails sort c, a, b by name order: the sort
  // by email is the file's order, not the creation order.
  await sql(
    `insert into dealers (email, full_name, company_name, tier, status, phone_e164, address_json, created_at, updated_at)
     values
       ($2, 'Export ' || $1 || ' One', '=cmd|'' /C calc''!A0', 'Affiliate', 'pending', '+15551234567', $7::jsonb, now() - interval '3 minutes', now()),
       ($3, 'Export ' || $1 || ' Two', 'Two, "Quoted" Co', 'Preferred', 'pending', '+15551234567', $7::jsonb, now() - interval '2 minutes', now()),
       ($4, 'Export ' || $1 || ' Three', 'Plain Co', 'Authorized', 'pending', '+15551234567', $7::jsonb, now() - interval '1 minute', now()),
       ($5, 'Export ' || $1 || ' Approved', 'Approved Co', 'Affiliate', 'approved', '+15551234567', $7::jsonb, now(), now()),
       ($6, 'Elsewhere', 'Elsewhere Co', 'Affiliate', 'pending', '+15551234567', $7::jsonb, now(), now())`,
    [
      tag,
      `c.${tag}@example.com`,
      `a.${tag}@example.com`,
      `b.${tag}@example.com`,
      `d.${tag}@example.com`,
      `elsewhere.${Date.now()}@example.com`,
      ADDRESS,
    ],
  );
  const username = await newReviewer(tag);
  await signInAs(page, username);

  // The view: the search (typed), the Pending tab and the sort by email.
  await page.getByLabel('Search').fill(`Export ${tag}`);
  await expect(page).toHaveURL(/q=/);
  await page.getByRole('tab', { name: /^Pending/ }).click();
  await choose(page, 'Sort by', 'Email');
  await expect(page).toHaveURL(/status=pending/);
  await expect(page).toHaveURL(/sort=email/);
  const rows = page.getByTestId('dealer-row');
  await expect(rows).toHaveCount(3);

  // Two columns: none, then Email and Company Name (the file keeps the list's order).
  await page.getByRole('button', { name: 'Export columns' }).click();
  await page.getByRole('button', { name: 'None', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Email', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Company Name', exact: true }).check();
  await expect(page.getByRole('button', { name: 'Export columns' })).toHaveText('Export columns (2/30)');
  await expect.poll(() => savedColumns(username)).toEqual(['companyName', 'email']);
  await page.keyboard.press('Escape');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`dealers-export-${new Date().toISOString().slice(0, 10)}.csv`);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv).toBe(
    '\uFEFFCompany Name,Email\r\n' +
      `"Two, ""Quoted"" Co",a.${tag}@example.com\r\n` +
      `Plain Co,b.${tag}@example.com\r\n` +
      `'=cmd|' /C calc'!A0,c.${tag}@example.com\r\n`,
  );

  // Remembered: a new visit starts from the two columns.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Export columns' })).toHaveText('Export columns (2/30)');
  await page.getByRole('button', { name: 'Export columns' }).click();
  await expect(page.getByRole('checkbox', { name: 'Email', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Company Name', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Full Name', exact: true })).not.toBeChecked();
});
