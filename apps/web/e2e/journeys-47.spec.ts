import {
  type Browser,
  type BrowserContextOptions,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import { approvedDealer, uniqueEmail } from './support/accounts';
import { seriousViolations } from './support/axe';
import { readyInstaller } from './support/installer';
import { linkIn, waitForMail } from './support/mail';
import { typeAndPick } from './support/site';

/**
 * Issue 47: the homeowner's, the installer's and the seller's journeys, each at 1280x800 and on a
 * 390x844 touch phone, asserting what the person sees, with axe on each new screen.
 */

const SIZES: { name: string; options: BrowserContextOptions }[] = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];

// Each journey and size has its own town far from the others' (and from the other specs'), so the
// installer it makes is the one offered its job.
const TOWNS = {
  homeowner: {
    desktop: { zip: '04401', city: 'Bangor', state: 'Maine', code: 'ME' },
    phone: { zip: '05401', city: 'Burlington', state: 'Vermont', code: 'VT' },
  },
  installer: {
    desktop: { zip: '99705', city: 'North Pole', state: 'Alaska', code: 'AK' },
    phone: { zip: '96813', city: 'Honolulu', state: 'Hawaii', code: 'HI' },
  },
  seller: {
    desktop: { zip: '83702', city: 'Boise', state: 'Idaho', code: 'ID' },
    phone: { zip: '58102', city: 'Fargo', state: 'North Dakota', code: 'ND' },
  },
} as const;

async function personPage(browser: Browser, options: BrowserContextOptions, baseURL: string | undefined) {
  const context = await browser.newContext({ ...options, baseURL });
  return context.newPage();
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

/** An installer near `zip`, signed in through `ctx`'s own request context; an admin context too. */
async function installerNear(browser: Browser, baseURL: string | undefined, zip: string, companyName: string) {
  const admin = await playwrightRequest.newContext({ baseURL });
  const ctx = await browser.newContext({ baseURL });
  const dealer = await readyInstaller(ctx.request, admin, { tier: 'Authorized', zipCode: zip, companyName });
  return { admin, ctx, dealer };
}

async function acceptOpenOffer(ctx: { request: Page['request'] }, city: string) {
  const offers = (await (await ctx.request.get('/api/dealer/job-offers')).json()).items as {
    id: string;
    city: string;
  }[];
  const offer = offers.find((o) => o.city === city);
  expect(offer, `an offer in ${city}`).toBeDefined();
  const res = await ctx.request.post(`/api/dealer/job-offers/${offer!.id}/accept`);
  expect(res.ok(), await res.text()).toBe(true);
}

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test('a homeowner asks for a quote from the first screen and follows it to the installer', async ({
      browser,
      baseURL,
    }) => {
      const town = TOWNS.homeowner[size.name as 'desktop' | 'phone'];
      const company = `Quote Attic ${size.name} ${Date.now().toString(36)}`;
      const inst = await installerNear(browser, baseURL, town.zip, company);
      const page = await personPage(browser, size.options, baseURL);

      // The first screen links the quote form.
      await page.goto('/');
      const link = page.getByTestId('hero-quote-link');
      await expect(link).toBeInViewport();
      await link.click();
      await expect(page).toHaveURL(/\/quote$/);
      await expect(page.getByRole('heading', { name: 'Get an installation quote' })).toBeVisible();
      await expect(page.getByText('solar attic fans and attic insulation')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      const email = uniqueEmail(`home-${size.name}`);
      await page.getByRole('textbox', { name: 'Full name', exact: true }).fill('Hanna Homeowner');
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('207-555-0142');
      await page.getByRole('textbox', { name: 'Street', exact: true }).fill('5 Pine Rd');
      await page.getByRole('textbox', { name: 'City', exact: true }).fill(town.city);
      // The state is found by its name.
      await typeAndPick(page.getByRole('combobox', { name: 'State' }), town.state, `${town.state} (${town.code})`);
      await page.getByRole('textbox', { name: 'ZIP code', exact: true }).fill(town.zip);
      await page.getByLabel('I agree to be contacted by phone and email about my installation').check();
      await page.getByRole('button', { name: 'Request my quote' }).click();
      // The answer is brought into view and focused (on a phone the button was far down).
      const received = page.getByTestId('quote-received');
      await expect(received).toBeInViewport();
      await expect(received).toBeFocused();
      await expect(received).toContainText('says by when an installer will answer');
      await shot(page, `homeowner-received-${size.name}`);

      // The email and the status page say by when, and what if nobody takes it.
      const mail = await waitForMail(email, /received your installation request/);
      expect(mail.text).toContain('An installer near you will answer by');
      expect(mail.text).toContain('we ask the next one near you');
      await page.goto(linkIn(mail, '/quote/'));
      const next = page.getByTestId('status-next');
      await expect(next).toContainText(/An installer near you will answer by \w{3}, \w{3} \d+, \d+:\d\d [AP]M ET/);
      await expect(next).toContainText('If that installer cannot take it');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `homeowner-status-offered-${size.name}`);

      // The installer takes it: the page names them, with a phone to tap.
      await acceptOpenOffer(inst.ctx, town.city);
      await page.reload();
      await expect(page.getByTestId('installation-status')).toContainText('Installer assigned');
      const phone = next.getByRole('link', { name: /^\(555\) \d{3}-\d{4}$/ });
      await expect(phone).toHaveAttribute('href', /^tel:\+1555\d{7}$/);
      await expect(next).toContainText(`${company} will call you to schedule the installation.`);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `homeowner-status-assigned-${size.name}`);
      await inst.admin.dispose();
    });

    test('an installer gets the offer by email, follows its link, signs in and accepts', async ({
      browser,
      baseURL,
    }) => {
      const town = TOWNS.installer[size.name as 'desktop' | 'phone'];
      const inst = await installerNear(browser, baseURL, town.zip, `Offer Attic ${size.name}`);
      await inst.ctx.close();

      // A homeowner's job near them (an admin's, as the console makes one).
      const home = uniqueEmail('offer-home');
      const created = await inst.admin.post('/api/admin/jobs', {
        data: {
          homeowner: { fullName: 'Olive Owner', email: home, phone: '907-555-0190' },
          street: '1 Santa Claus Ln',
          city: town.city,
          state: town.code,
          zipCode: town.zip,
          fans: 2,
          atticSqFt: 1800,
          notes: 'Dog in the yard. <b>Gate</b> code 4411.',
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      expect((await created.json()).status).toBe('offered');

      const mail = await waitForMail(
        inst.dealer.email,
        new RegExp(`^Job offer in ${town.city}, ${town.code}: answer by`),
      );
      expect(mail.text).toContain('What: 2 solar attic fans, 1,800 sq ft attic');
      expect(mail.text).toContain(`Where: ${town.city}, ${town.code} ${town.zip}`);
      expect(mail.text).toMatch(/How far: \d+\.\d miles/);
      expect(mail.text).toMatch(/Answer by: \w{3}, \w{3} \d+, \d+:\d\d [AP]M \w+/);
      expect(mail.text).not.toContain('Olive');
      expect(mail.html).toContain('&lt;b&gt;Gate&lt;/b&gt;');
      const link = linkIn(mail, '/dashboard');
      expect(link).toMatch(/\/dashboard\?offer=[0-9a-f-]{36}$/);

      // Signed out, the link goes to sign-in, and back to the offer.
      const page = await personPage(browser, size.options, baseURL);
      await page.goto(link);
      await expect(page).toHaveURL(/\/login\?offer=/);
      await page.getByRole('textbox', { name: 'Email' }).fill(inst.dealer.email);
      await page.getByRole('textbox', { name: 'Password' }).fill(inst.dealer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page).toHaveURL(/\/dashboard\?offer=/);
      const offer = page.locator('[data-testid="job-offer"][data-focused]');
      // This machine is shared and slow: the dashboard's lazy cards may take a while.
      await expect(offer).toBeVisible();
      await expect(offer).toBeInViewport();
      await expect(offer).toContainText(`${town.city}, ${town.code} ${town.zip}`);
      await expect(offer).toContainText('2 solar attic fans, 1,800 sq ft attic');
      // The notes are the homeowner's words, shown as text.
      await expect(offer).toContainText("Homeowner's notes: Dog in the yard. <b>Gate</b> code 4411.");
      await expect(offer).toContainText(/Answer by \w{3}, \w{3} \d+, \d+:\d\d [AP]M/);
      // An offer to answer is not "no jobs".
      await expect(page.getByTestId('jobs-card')).not.toContainText('No jobs yet.');
      // Open offers come first: above the onboarding checklist.
      const offerBox = await offer.boundingBox();
      const onboardingBox = await page.getByTestId('onboarding-card').boundingBox();
      expect(offerBox!.y).toBeLessThan(onboardingBox!.y);
      expect(await seriousViolations(page, '[data-testid="jobs-card"]')).toEqual([]);
      await shot(page, `installer-offer-${size.name}`);

      await offer.getByRole('button', { name: 'Accept' }).click();
      await expect(page.getByText(/Call Olive Owner to schedule the installation/)).toBeVisible();
      await expect(page.getByTestId('offer-gone')).toHaveCount(0);
      const row = page.locator('[data-testid="job-row"][data-highlighted]');
      await expect(row).toContainText('Olive Owner');
      await expect(row.getByRole('link', { name: '(907) 555-0190' })).toHaveAttribute('href', 'tel:+19075550190');
      await expect(row.getByRole('link', { name: home })).toHaveAttribute('href', `mailto:${home}`);
      await expect(row).toContainText('Dog in the yard');

      // Cancel asks first; keeping the job changes nothing.
      await row.getByRole('button', { name: 'Cancel job…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
      await expect(dialog.getByRole('button', { name: 'Cancel job' })).toBeDisabled();
      expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('button', { name: 'Keep the job' }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toContainText('Installer assigned');

      // The installer's own picture: the service area as a sentence, and the steps as shown.
      await page.getByRole('button', { name: 'Service area' }).click();
      const summary = page.getByTestId('service-area-summary');
      await expect(summary).toContainText(
        `You receive jobs within 30 miles of ${town.city}, ${town.code}; up to 3 a week.`,
      );
      await summary.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('textbox', { name: 'Radius (miles)' }).fill('60');
      await page.getByRole('button', { name: 'Save service area' }).click();
      await expect(summary).toContainText(`within 60 miles of ${town.city}, ${town.code}`);
      await expect(page.getByTestId('onboarding-count')).toHaveText(/of 4 steps done/);
      expect(await seriousViolations(page, '[data-testid="jobs-card"]')).toEqual([]);
      await shot(page, `installer-accepted-${size.name}`);
      await inst.admin.dispose();
    });

    test('a seller registers a job and follows it to its installer', async ({ browser, baseURL }) => {
      const town = TOWNS.seller[size.name as 'desktop' | 'phone'];
      const company = `Seller Attic ${size.name} ${Date.now().toString(36)}`;
      const inst = await installerNear(browser, baseURL, town.zip, company);
      const page = await personPage(browser, size.options, baseURL);
      await approvedDealer(page.request, inst.admin, { fullName: 'Sam Seller' });

      await page.goto('/dashboard');
      const card = page.getByTestId('jobs-card');
      await card.getByRole('button', { name: 'Register a job' }).click();
      await card.getByRole('textbox', { name: 'Homeowner name', exact: true }).fill('Hal Homeowner');
      await card.getByRole('textbox', { name: 'Homeowner email', exact: true }).fill(uniqueEmail('sold'));
      await card.getByRole('textbox', { name: 'Homeowner phone', exact: true }).fill('208-555-0111');
      await card.getByRole('textbox', { name: 'Street', exact: true }).fill('9 Main St');
      await card.getByRole('textbox', { name: 'City', exact: true }).fill(town.city);
      await typeAndPick(card.getByRole('combobox', { name: 'State' }), town.state, `${town.state} (${town.code})`);
      await card.getByRole('textbox', { name: 'ZIP code', exact: true }).fill(town.zip);
      await card.getByRole('textbox', { name: 'Sale amount ($)', exact: true }).fill('1500.00');
      expect(await seriousViolations(page, '[data-testid="jobs-card"]')).toEqual([]);
      await card.getByRole('button', { name: 'Register job', exact: true }).click();
      await expect(page.getByText('Offered to an installer near the homeowner.').first()).toBeVisible();

      // The page stays on the job just registered (not the payout form below).
      const row = page.locator('[data-testid="job-row"][data-highlighted]');
      await expect(row).toBeInViewport();
      await expect(row).toContainText(`${town.city}, ${town.code} ${town.zip}`);
      await expect(row).toContainText('Hal Homeowner');
      await expect(row).toContainText('$1,500.00');
      await expect(row).toContainText(/Registered \w{3}, \w{3} \d+, \d+:\d\d [AP]M/);
      // Whom it waits on, and by when; the badge says it waits on an answer.
      await expect(row).toContainText('Awaiting answer');
      await expect(row).toContainText(
        new RegExp(`Waiting for ${company} to answer by \\w{3}, \\w{3} \\d+, \\d+:\\d\\d [AP]M`),
      );
      await shot(page, `seller-registered-${size.name}`);

      await acceptOpenOffer(inst.ctx, town.city);
      await page.reload();
      const sold = page.getByTestId('job-row').filter({ hasText: 'Hal Homeowner' });
      await expect(sold).toContainText('Installer assigned');
      await expect(sold).toContainText(`Installer: ${company}`);
      await expect(sold.getByRole('link', { name: /^\(555\) \d{3}-\d{4}$/ })).toHaveAttribute('href', /^tel:\+1555/);
      expect(await seriousViolations(page, '[data-testid="jobs-card"]')).toEqual([]);
      await sold.scrollIntoViewIfNeeded();
      await shot(page, `seller-assigned-${size.name}`);
      await inst.admin.dispose();
    });
  });
}
