import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { uniqueEmail } from './support/accounts';
import { signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { CERTIFICATE_PDF, dayIn, plusDays, readyInstaller, serverNow, uploadCertificate } from './support/installer';
import { expectFits } from './support/site';
import { limit } from './support/time';

/**
 * Issue 45 (finding 2): compliance on evidence. A dealer uploads the insurance certificate on the
 * dashboard, an owner opens and verifies it in the console's queue, and the dealer then receives a
 * job offer; a rejected certificate keeps offers away and the dealer sees why. At 1280 and 390 px.
 */

/** A job the admin creates at `zip` (it is routed at once); the ZIPs below are far from every other test's installers. */
async function jobAt(admin: APIRequestContext, site: { street: string; city: string; state: string; zipCode: string }) {
  const res = await admin.post('/api/admin/jobs', {
    data: {
      homeowner: { fullName: 'Evi Evidence', email: uniqueEmail('evidence'), phone: '406-555-0142' },
      ...site,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** This journey shares a 2-core machine with other suites: the console's and dashboard's polls can take long. */
const slow = expect.configure({ timeout: limit(60_000) });

const SITES = {
  1280: {
    verified: { street: '1 Main St', city: 'Butte', state: 'MT', zipCode: '59701' },
    rejected: { street: '1 Main St', city: 'Pocatello', state: 'ID', zipCode: '83201' },
  },
  390: {
    verified: { street: '1 Main St', city: 'Rock Springs', state: 'WY', zipCode: '82901' },
    rejected: { street: '1 Main St', city: 'Bismarck', state: 'ND', zipCode: '58501' },
  },
} as const;

for (const width of [1280, 390] as const) {
  test(`at ${width} px: an uploaded insurance certificate verified by the owner brings offers; a rejected one keeps them away and says why`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(limit(360_000));
    const viewport = { width, height: width === 390 ? 844 : 900 };
    const sites = SITES[width];
    const tag = Date.now().toString(36);
    const admin = await playwrightRequest.newContext({ baseURL });
    const dealer = await (await browser.newContext({ viewport })).newPage();
    const rejected = await (await browser.newContext({ viewport })).newPage();
    const verifiedCompany = `Evidence Attic ${width} ${tag}`;
    const rejectedCompany = `Rejected Attic ${width} ${tag}`;
    // Signed, licence verified, service area set; the insurance is what this test is about.
    await readyInstaller(dealer.request, admin, {
      tier: 'Authorized',
      zipCode: sites.verified.zipCode,
      companyName: verifiedCompany,
      insurance: 'none',
    });
    const other = await readyInstaller(rejected.request, admin, {
      tier: 'Preferred',
      zipCode: sites.rejected.zipCode,
      companyName: rejectedCompany,
      insurance: 'none',
    });
    const inAYear = plusDays(dayIn(serverNow(), 'America/New_York'), 365);
    await uploadCertificate(rejected.request, 'insurance', inAYear);

    // No verified insurance yet: a job in the area is not offered.
    await jobAt(admin, sites.verified);
    const offers = async (page: typeof dealer) =>
      ((await (await page.request.get('/api/dealer/job-offers')).json()).items as unknown[]).length;
    expect(await offers(dealer)).toBe(0);

    // The dealer uploads the certificate on the dashboard.
    await dealer.goto('/dashboard#onboarding-insurance');
    const box = dealer.getByTestId('compliance-insurance');
    await box.locator('input[type="file"]').setInputFiles({
      name: 'acme-certificate.pdf',
      mimeType: 'application/pdf',
      buffer: CERTIFICATE_PDF,
    });
    await box.getByLabel('Insurance certificate expires on').fill(inAYear);
    await box.getByRole('button', { name: 'Upload insurance certificate' }).click();
    await slow(box.getByTestId('document-status').first()).toHaveText('Pending review');
    await slow(box).toContainText('Waiting for review');
    expect(await seriousViolations(dealer, '[data-testid="compliance-screen"]')).toEqual([]);
    await dealer.screenshot({ path: test.info().outputPath(`dealer-pending-${width}.png`), fullPage: true });

    // The owner opens it from the queue in the Dealers section, and verifies it.
    const ownerContext = await browser.newContext({ baseURL, viewport });
    const owner = await ownerContext.newPage();
    await signInAs(owner, ADMIN.username);
    await owner.goto('/admin');
    const item = owner.getByTestId('compliance-queue').getByTestId('queue-item').filter({ hasText: verifiedCompany });
    // The console's polls share a slow, shared machine with the other tests: a longer wait than 10 s.
    await slow(item).toBeVisible();
    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      item.getByRole('link', { name: /Open Insurance certificate/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('acme-certificate.pdf');
    const href = await item.getByRole('link', { name: /Open Insurance certificate/ }).getAttribute('href');
    const opened = await owner.request.get(href ?? '');
    expect(opened.headers()['content-disposition']).toBe('attachment; filename="acme-certificate.pdf"');
    expect(opened.headers()['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(await opened.body()).equals(CERTIFICATE_PDF)).toBe(true);
    await owner.screenshot({ path: test.info().outputPath(`owner-queue-${width}.png`), fullPage: true });
    if (width === 390) {
      await expectFits(item.getByRole('button', { name: 'Verify' }), 390);
    }
    await item.getByRole('button', { name: 'Verify' }).click();
    await slow(item).toHaveCount(0);

    // The other dealer's certificate is rejected with a reason.
    const bad = owner.getByTestId('compliance-queue').getByTestId('queue-item').filter({ hasText: rejectedCompany });
    await bad.getByRole('button', { name: 'Reject' }).click();
    await bad.getByLabel('Reason (emailed to the dealer)').fill('The certificate names another company');
    await bad.getByRole('button', { name: 'Reject document' }).click();
    await slow(bad).toHaveCount(0);
    await ownerContext.close();

    // Verified: the next job in the area is offered to the dealer, and the step shows verified.
    await jobAt(admin, sites.verified);
    await slow.poll(() => offers(dealer)).toBeGreaterThan(0);
    await dealer.goto('/dashboard');
    await slow(dealer.getByTestId('job-offer').first()).toContainText(
      `${sites.verified.city}, ${sites.verified.state}`,
    );
    await dealer.goto('/dashboard#onboarding-insurance');
    await dealer.reload();
    await slow(dealer.getByTestId('compliance-insurance')).toContainText(
      `Verified: your insurance certificate is current until ${inAYear}`,
    );
    await dealer.screenshot({ path: test.info().outputPath(`dealer-verified-${width}.png`), fullPage: true });

    // Rejected: no offer, and the dealer reads why.
    await jobAt(admin, sites.rejected);
    expect(await offers(rejected)).toBe(0);
    await rejected.goto('/dashboard');
    const card = rejected.getByTestId('onboarding-card');
    await slow(card).toContainText('Insurance certificate not accepted: see why below');
    await card.getByRole('button', { name: /Insurance certificate and contractor licence/ }).click();
    await slow(card.getByTestId('rejection-reason')).toHaveText('The certificate names another company');
    await slow(rejected.getByTestId('job-offer')).toHaveCount(0);
    await rejected.screenshot({ path: test.info().outputPath(`dealer-rejected-${width}.png`), fullPage: true });
    expect(other.id).toBeTruthy();
    await admin.dispose();
  });
}
