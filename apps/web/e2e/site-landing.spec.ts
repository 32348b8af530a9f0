import { expect, test } from '@playwright/test';
import { appStarted, sql } from './support/site';

test('the landing shows its nav, hero, tiers, demo and call to action, without the app top nav', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  for (const name of ['Home', 'Dealer Program', 'Demo', 'Dealer Login']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole('button', { name: 'Schedule Call' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enroll Now' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Watch Demo' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enroll Directly' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Schedule a Call' })).toBeVisible();
  // The intro video's slot: its titled placeholder, or the player while admin-console.spec (run in
  // parallel, same database) has one configured.
  await expect(page.getByText('60-Second Intro Video').or(page.getByTestId('video-intro_video'))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Full Product Demo' })).toBeVisible();

  const affiliate = page.getByTestId('tier-card-Affiliate');
  for (const b of [
    'Wholesale pricing',
    'No installation required',
    'Installation via the preferred dealer network at preferred pricing',
    'Consistent margins and labor costs',
    'No upfront investment',
  ]) {
    await expect(affiliate.getByText(b, { exact: true })).toBeVisible();
  }
  const authorized = page.getByTestId('tier-card-Authorized');
  for (const b of [
    'Wholesale dealer pricing',
    'Sells and installs',
    'No stock to carry beyond the initial inventory',
    '$5,000 initial inventory prepaid',
    'Handles affiliate overflow work',
  ]) {
    await expect(authorized.getByText(b, { exact: true })).toBeVisible();
  }
  const preferred = page.getByTestId('tier-card-Preferred');
  for (const b of [
    'Preferred dealer pricing',
    'Receives affiliate network projects',
    '$25,000 initial inventory with 50% upfront',
    'Network installation services',
  ]) {
    await expect(preferred.getByText(b, { exact: true })).toBeVisible();
  }
  await expect(preferred.getByText('Most Popular')).toBeVisible();
  await expect(affiliate.getByText('Most Popular')).toHaveCount(0);

  await expect(page.getByTestId('top-nav')).toHaveCount(0);
  await expect(page.getByTestId('app-version')).toHaveText(/1\.7\.98/);
  expect(await page.evaluate(() => localStorage.getItem('app-version'))).toBe('1.7.98');

  await nav.getByRole('link', { name: 'Demo', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Full Product Demo' })).toBeInViewport();
});

test('the app top nav is hidden on login pages and shown elsewhere; the footer hides on login pages', async ({
  page,
}) => {
  for (const path of ['/login', '/admin/login']) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await expect(page.getByTestId('top-nav')).toHaveCount(0);
    await expect(page.getByTestId('app-version')).toHaveCount(0);
  }
  await page.goto('/about');
  await expect(page.getByTestId('top-nav')).toBeVisible();
  await expect(page.getByTestId('top-nav').getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByTestId('app-version')).toBeVisible();
});

test('marketing pages: about chart with its values, presentation, resources', async ({ page }) => {
  await page.goto('/about');
  const chart = page.getByRole('figure', { name: "Where a home's energy goes" });
  for (const v of ['50-60%', '18-22%', '10-12%']) await expect(chart.getByText(v)).toBeVisible();
  await page.goto('/presentation');
  await expect(page.getByText('97%', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Book My Call' })).toBeVisible();
  await page.goto('/resources');
  await expect(page.getByRole('link', { name: /Back to home/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /shared drive/i })).toHaveAttribute('target', '_blank');
  for (const s of ['Product documentation', 'Marketing materials', 'Training', 'Sales tools', 'Support contacts']) {
    await expect(page.getByText(s, { exact: true })).toBeVisible();
  }
});

test('a 375 px wide landing scrolls only vertically and offers the mobile menu', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Enroll Now' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link', { name: 'Admin Login' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Dealer Program' })).toBeVisible();
});

test('an unknown path shows Page Not Found', async ({ page }) => {
  const res = await page.goto('/definitely/not/here');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('an admin embed code with <script> or onerror never runs on the landing', async ({ page }) => {
  await page.route('https://player.vimeo.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>player</p>' }),
  );
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // Only the demo slot: admin-console.spec, run in parallel on the same database, owns the intro one.
  const hostile = [
    '<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=2;alert(2)</script>' +
      '<iframe src="https://player.vimeo.com/video/76979871?h=abc123def0" onload="window.__xss=3"></iframe>',
    '<svg onload="window.__xss=4"></svg><script>alert(5)</script>',
  ];
  const frame = page.getByTestId('video-demo_video');
  const nothingRan = async () => {
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(await page.locator('img[src="x"], svg[onload], script:not([src])').count()).toBe(0);
  };
  try {
    await sql(`update landing_videos set vimeo_embed_code = $1 where video_key = 'demo_video'`, [hostile[0]]);
    await page.goto('/');
    await expect(frame).toHaveAttribute('src', 'https://player.vimeo.com/video/76979871?h=abc123def0&dnt=1');
    await nothingRan();
    expect(await frame.getAttribute('onload')).toBeNull();

    await sql(`update landing_videos set vimeo_embed_code = $1 where video_key = 'demo_video'`, [hostile[1]]);
    await page.goto('/');
    await expect(page.getByText('Full Product Demo').first()).toBeVisible();
    await expect(frame).toHaveCount(0);
    await nothingRan();
  } finally {
    await sql(`update landing_videos set vimeo_embed_code = null where video_key = 'demo_video'`);
  }
});

test('before the app boots, the landing videos come from the API and are polled every 30 s', async ({ page }) => {
  await page.route('https://player.vimeo.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>player</p>' }),
  );
  const [demo] = await sql<{ title: string }>(`select title from landing_videos where video_key = 'demo_video'`);
  await sql(`update landing_videos set title = 'Our Demo', vimeo_embed_code = $1 where video_key = 'demo_video'`, [
    'https://vimeo.com/76979871',
  ]);
  try {
    await page.clock.install();
    await page.goto('/');
    const frame = page.getByTestId('video-demo_video');
    await expect(frame).toHaveAttribute('src', 'https://player.vimeo.com/video/76979871?dnt=1');
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-presentation allow-popups');
    await expect(page.getByRole('heading', { name: 'Our Demo' })).toBeVisible();
    // The intro video's slot: its titled placeholder, or the player while admin-console.spec (run in
    // parallel, same database) has one configured.
    await expect(page.getByText('60-Second Intro Video').or(page.getByTestId('video-intro_video'))).toBeVisible();

    await sql(`update landing_videos set vimeo_embed_code = $1 where video_key = 'demo_video'`, [
      'https://vimeo.com/12345678',
    ]);
    await page.clock.runFor(30_000);
    await expect(frame).toHaveAttribute('src', 'https://player.vimeo.com/video/12345678?dnt=1');
    expect(await appStarted(page)).toBe(false);

    // The app takes over with the same list.
    await page.getByRole('button', { name: 'Enroll Now' }).click();
    await expect(page.getByRole('dialog', { name: 'Dealer Application' })).toBeVisible();
    await expect(frame).toHaveAttribute('src', 'https://player.vimeo.com/video/12345678?dnt=1');
    await expect(page.getByRole('heading', { name: 'Our Demo' })).toBeVisible();
  } finally {
    await sql(`update landing_videos set vimeo_embed_code = null, title = $1 where video_key = 'demo_video'`, [
      demo?.title,
    ]);
  }
});
