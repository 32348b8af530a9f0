import {
  type APIRequestContext,
  type BrowserContextOptions,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import { ADMIN } from './global-setup';
import { uniqueEmail } from './support/accounts';
import { adminSection, signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { advanceClock } from './support/clock';
import { readyInstaller, serverNow } from './support/installer';
import { waitForMail } from './support/mail';
import { limit } from './support/time';

/**
 * Issue 50: routing by score. An installer who lets offers expire three times in a row is paused,
 * emailed why, sees the paused state on the dashboard and resumes; the owner's monthly tier review
 * shows the evidence and applies one change through the dealer's tier change. Each at 390x844 (a
 * touch phone) and 1280x800, with axe on each new screen. Towns of their own: Pierre, SD (the
 * Preferred installer whose offers expire) and Casper, WY (an Authorized one who answers).
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const stamp = Date.now().toString(36);
const PIERRE = { zipCode: '57501', city: 'Pierre', state: 'SD' };
const CASPER = { zipCode: '82601', city: 'Casper', state: 'WY' };
const shared = { preferred: { id: '', email: '', company: `Pierre Attic ${stamp}` } };

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

async function adminJob(admin: APIRequestContext, town: typeof PIERRE) {
  const res = await admin.post('/api/admin/jobs', {
    data: {
      homeowner: { fullName: 'Dana Homeowner', email: uniqueEmail('score'), phone: '605-555-0142' },
      street: '1 Capitol Ave',
      ...town,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; status: string };
}

test.describe
  .serial('issue 50: routing by score', () => {
    test('offers expired three times in a row pause the installer, who is emailed and resumes (390 and 1280)', async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(limit(180_000));
      const admin = await playwrightRequest.newContext({ baseURL });
      expect((await admin.post('/api/admin/login', { data: ADMIN })).ok()).toBe(true);

      // An Authorized installer in Casper who answers at once: the Authorized tier has a score.
      const casper = await browser.newContext({ baseURL });
      await readyInstaller(casper.request, admin, {
        tier: 'Authorized',
        ...CASPER,
        companyName: `Casper Attic ${stamp}`,
      });
      const cj = await adminJob(admin, CASPER);
      expect(cj.status).toBe('offered');
      const cOffers = (await (await casper.request.get('/api/dealer/job-offers')).json()).items as { id: string }[];
      expect((await casper.request.post(`/api/dealer/job-offers/${cOffers[0]!.id}/accept`)).ok()).toBe(true);

      // A Preferred installer in Pierre, offered five jobs it never answers (room for five open
      // offers at once: they count against the week's capacity, decision 1125).
      const phone = await browser.newContext({ ...PHONE, baseURL });
      const p = await readyInstaller(phone.request, admin, {
        tier: 'Preferred',
        ...PIERRE,
        companyName: shared.preferred.company,
        weeklyCapacity: 10,
      });
      shared.preferred = { ...shared.preferred, id: p.id, email: p.email };
      for (let k = 0; k < 5; k++) expect((await adminJob(admin, PIERRE)).status).toBe('offered');
      const open = (await (await phone.request.get('/api/dealer/job-offers')).json()).items as { expiresAt: string }[];
      expect(open).toHaveLength(5);
      const last = Math.max(...open.map((o) => new Date(o.expiresAt).getTime()));
      // The offers' deadline passes (the scheduler sweeps every second in e2e).
      advanceClock(last - serverNow().getTime() + 5_000);
      await expect
        .poll(async () => (await (await phone.request.get('/api/dealer/service-area')).json()).area.pausedReason, {
          timeout: limit(60_000),
        })
        .toBe('expired_offers');
      const mail = await waitForMail(p.email, /job offers are paused/);
      expect(mail.text).toContain('press Resume under your service area');

      // On the phone: the paused state, why, and Resume.
      const page = await phone.newPage();
      await page.goto('/dashboard');
      const paused = page.getByTestId('service-area-paused');
      // The dashboard's cards are lazy chunks: a loaded machine takes a while.
      await expect(paused).toContainText('Paused after 3 offers expired', { timeout: limit(60_000) });
      await expect(paused).toContainText('You receive no job offers until you resume');
      await expect(paused.getByRole('button', { name: 'Resume' })).toBeVisible();
      expect(await seriousViolations(page, '[data-testid="jobs-card"]')).toEqual([]);
      await shot(page, 'paused-390');

      // At 1280: the same, and the installer resumes.
      const desktop = await browser.newContext({ ...DESKTOP, baseURL, storageState: await phone.storageState() });
      const wide = await desktop.newPage();
      await wide.goto('/dashboard');
      const pausedWide = wide.getByTestId('service-area-paused');
      await expect(pausedWide).toContainText('Paused after 3 offers expired', { timeout: limit(60_000) });
      expect(await seriousViolations(wide, '[data-testid="jobs-card"]')).toEqual([]);
      await shot(wide, 'paused-1280');
      await pausedWide.getByRole('button', { name: 'Resume' }).click();
      await expect(wide.getByText('Offers resumed')).toBeVisible();
      await expect(wide.getByTestId('service-area-summary')).toContainText(
        'You receive jobs within 30 miles of Pierre',
      );
      await shot(wide, 'resumed-1280');
      // Offers come again.
      expect((await adminJob(admin, PIERRE)).status).toBe('offered');
      await Promise.all([admin.dispose(), casper.close(), phone.close(), desktop.close()]);
    });

    test("the owner's tier review: the evidence, one change through the tier change, the dealer's new tier (1280 and 390)", async ({
      browser,
      baseURL,
    }) => {
      const p = shared.preferred;
      expect(p.id, 'the first test made the Preferred installer').not.toBe('');

      // At 1280: the list, and the Pierre installer's evidence (five offers, none answered: score 0.0).
      const desktop = await browser.newContext({ ...DESKTOP, baseURL });
      const page = await desktop.newPage();
      await signInAs(page, ADMIN.username);
      await adminSection(page, 'Jobs').click();
      await page.getByRole('button', { name: 'Tier reviews' }).click();
      const list = page.getByTestId('tier-reviews');
      await expect(list.getByRole('heading', { name: /^Tier reviews · [A-Z][a-z]+ \d{4}$/ })).toBeVisible();
      await expect(page.getByTestId('tier-review-medians')).toContainText('Median score: Preferred');
      const row = page.getByTestId('tier-review-row').filter({ hasText: p.company });
      await expect(row).toContainText('Preferred');
      await expect(row).toContainText('0.0');
      await expect(row).toContainText('0% of 5');
      await expect(row).toContainText('No reviews');
      await expect(row.getByRole('button', { name: `Downgrade to Authorized: ${p.company}` })).toBeVisible();
      expect(await seriousViolations(page, '[data-testid="tier-reviews"]')).toEqual([]);
      await shot(page, 'tier-reviews-1280');

      // On the phone: the same row, as a card; the owner applies the change there.
      const phone = await browser.newContext({ ...PHONE, baseURL, storageState: await desktop.storageState() });
      const small = await phone.newPage();
      await small.goto('/admin/jobs');
      await small.getByRole('button', { name: 'Tier reviews' }).click();
      const card = small.getByTestId('tier-review-row').filter({ hasText: p.company });
      await expect(card).toContainText('0.0');
      expect(await seriousViolations(small, '[data-testid="tier-reviews"]')).toEqual([]);
      await shot(small, 'tier-reviews-390');
      await card.getByRole('button', { name: `Downgrade to Authorized: ${p.company}` }).click();
      await expect(small.getByText('Tier changed')).toBeVisible();
      await expect(small.getByTestId('tier-review-row').filter({ hasText: p.company })).toHaveCount(0);

      // The dealer's page says Authorized; the dealer hears of it (the tier change's own email).
      await page.goto(`/admin/dealers/${p.id}`);
      await expect(page.getByText('Authorized').first()).toBeVisible();
      await expect(page.getByText(p.company).first()).toBeVisible();
      await shot(page, 'dealer-after-1280');
      await waitForMail(p.email, /Authorized/);
      await Promise.all([desktop.close(), phone.close()]);
    });
  });
