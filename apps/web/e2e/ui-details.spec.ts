import { expect, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { uniqueEmail } from './support/accounts';
import { adminSection } from './support/admin';
import { sql } from './support/site';

// Issue 15, SPEC section 9 (docs/decisions/0711): call dates as 'MMM d, yyyy', the toasts' F8 and swipe,
// the footer following the session.

test('an admin sees call dates as "MMM d, yyyy"; F8 reaches the toast, a swipe right past 50 px dismisses it', async ({
  page,
}) => {
  const email = uniqueEmail('calldate');
  await sql(
    `insert into call_schedules (name, email, phone, preferred_date, preferred_time, created_at, updated_at)
     values ('Dana Date', $1, '5125550100', '2031-06-01', 'afternoon', '2026-03-05T12:00:00Z', now())`,
    [email],
  );
  expect((await page.request.post('/api/admin/login', { data: ADMIN })).ok()).toBe(true);
  await page.goto('/admin?tab=calls');
  const row = page.getByTestId('call-row').filter({ hasText: email });
  await expect(row.getByRole('cell', { name: 'Jun 1, 2031' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Mar 5, 2026' })).toBeVisible();

  // The footer follows the session: an admin gets Admin and Sign Out, not Sign In.
  const footer = page.getByRole('navigation', { name: 'Footer' });
  await expect(footer.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Admin' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Sign In' })).toHaveCount(0);

  await row.getByRole('button', { name: 'Mark Completed' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Call status updated' });
  await expect(toast).toBeVisible();
  // F8 from anywhere moves focus to the notification region.
  await adminSection(page, 'Calls').focus();
  await page.keyboard.press('F8');
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toBeFocused();

  // The region is at most 420 px wide on a wide screen.
  const box = await toast.boundingBox();
  if (!box) throw new Error('toast has no box');
  // Layout widths are fractional (420.00006 seen): compare whole pixels.
  expect(Math.round(box.width)).toBeLessThanOrEqual(420);

  // 30 px is not enough (the toast stays), past 50 px it goes.
  const y = box.y + box.height / 2;
  const x = box.x + 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 30, y, { steps: 5 });
  await page.mouse.up();
  await expect(toast).toBeVisible();
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 80, y, { steps: 8 });
  await page.mouse.up();
  // Gone by the swipe: the pointer on the toast holds its auto-close, so only the swipe removes it
  // (the limit is for a busy machine's animation, not a measure of it).
  await expect(toast).toHaveCount(0);
});
