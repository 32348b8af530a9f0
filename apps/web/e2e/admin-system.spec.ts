import { expect, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { adminSection, signInAs } from './support/admin';
import { sql } from './support/site';

// The System section (issue 40): an admin sees the queues, an email given up on with its error, a
// backup run, and the 24-hour chart drawn from the samples.

test('an admin opens System and sees the queues, a failed email with its error, the last backup and the chart', async ({
  page,
}) => {
  const tag = Date.now().toString(36);
  await sql(
    `insert into email_outbox (kind, to_address, subject, text_body, status, attempts, last_error)
     values ('call-confirmation', $1, 'Your call', 'Hello', 'failed', 8, $2)`,
    [`gone.${tag}@example.com`, `550 mailbox ${tag} unavailable`],
  );
  await sql(
    `insert into backup_runs (trigger, file, schema_version, started_at, finished_at, bytes, encrypted, verified_at)
     values ('manual', $1, '2026-11-28-2500-system-samples-and-backups', now(), now(), 2936012, true, now())`,
    [`/backups/e2e-${tag}.dnbackup`],
  );
  await sql(
    `insert into system_samples (taken_at, figures)
     select now() - make_interval(mins => 5 * g), jsonb_build_object('mailWaiting', g % 7, 'mailOldestSeconds', g * 10, 'mailFailed', 1)
     from generate_series(1, 24) g on conflict do nothing`,
  );

  await signInAs(page, ADMIN.username);
  await adminSection(page, 'System').click();
  await expect(page).toHaveURL(/\/admin\/system$/);
  await expect(page.getByRole('heading', { name: 'System' })).toBeVisible();
  await expect(page.getByTestId('system-figure').filter({ hasText: 'Emails waiting' })).toBeVisible();
  await expect(page.getByTestId('system-failure').filter({ hasText: `550 mailbox ${tag} unavailable` })).toBeVisible();
  await expect(page.getByText(`/backups/e2e-${tag}.dnbackup`)).toBeVisible();
  // Issue 46: the last backup's check, its time, result and size.
  await expect(page.getByTestId('system-figure').filter({ hasText: 'Last backup verified' })).toContainText(
    'OK, 2.8 MB, encrypted',
  );
  await page.screenshot({ path: test.info().outputPath('system-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('system-figure').filter({ hasText: 'Last backup verified' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('system-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  const chart = page.getByRole('img', { name: 'Emails waiting, last 24 hours' });
  await expect(chart).toBeVisible();
  await expect(chart.locator('polyline')).toHaveAttribute('points', /\d+(\.\d+)?,\d+(\.\d+)? .+/);
});
