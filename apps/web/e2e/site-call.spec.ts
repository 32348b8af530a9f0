import { expect, test } from '@playwright/test';
import { uniqueEmail } from './support/accounts';
import { waitForMail } from './support/mail';
import { sql } from './support/site';

test('booking a call from the landing: validation, Scheduling..., toast, stored, confirmation email', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Schedule Call' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: /Preferred call time/ })).toHaveValue(/Morning/);

  await dialog.getByRole('button', { name: 'Schedule Call' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Preferred date is required')).toBeVisible();

  const email = uniqueEmail('caller');
  await dialog.getByLabel('Full name').fill('Cora Caller');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone').fill('(512) 555-0188');
  await dialog.getByRole('button', { name: /Preferred date/ }).click();
  await page.locator('table button:not([disabled]):not([data-outside]):not([data-disabled])').last().click();
  await dialog.getByRole('combobox', { name: /Preferred call time/ }).click();
  await page.getByRole('option', { name: /Afternoon/ }).click();

  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route('**/trpc/site.scheduleCall**', async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Schedule Call' }).click();
  await expect(dialog.getByRole('button', { name: 'Scheduling...' })).toBeDisabled();
  release();
  await expect(page.getByText('Call Scheduled!')).toBeVisible();
  await expect(page.getByText('You will receive a confirmation email shortly.')).toBeVisible();
  await expect(dialog).toBeHidden();

  const rows = await sql<{ status: string; preferred_time: string; preferred_date: string }>(
    'select status, preferred_time, preferred_date from call_schedules where email = $1',
    [email],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: 'scheduled', preferred_time: 'afternoon' });
  const mail = await waitForMail(email, /call is booked/);
  expect(mail.text).toContain('12 PM - 5 PM');
  expect(mail.text).toContain('Eastern Time');

  // The same slot again: the server refuses and the dialog says so.
  await page.unroute('**/trpc/site.scheduleCall**');
  await page.goto('/presentation');
  await page.getByRole('button', { name: 'Book My Call' }).click();
  const again = page.getByRole('dialog', { name: 'Schedule a Call' });
  await again.getByLabel('Full name').fill('Cora Caller');
  await again.getByLabel('Email').fill(email);
  await again.getByLabel('Phone').fill('(512) 555-0188');
  await again.getByRole('button', { name: /Preferred date/ }).click();
  await page.locator('table button:not([disabled]):not([data-outside]):not([data-disabled])').last().click();
  await again.getByRole('combobox', { name: /Preferred call time/ }).click();
  await page.getByRole('option', { name: /Afternoon/ }).click();
  await again.getByRole('button', { name: 'Schedule Call' }).click();
  await expect(page.getByText('Scheduling Failed')).toBeVisible();
  await expect(page.getByText(/already booked a call for this date and time window/)).toBeVisible();
});
