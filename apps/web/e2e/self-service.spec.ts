import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, uniqueEmail } from './support/accounts';
import { seriousViolations } from './support/axe';
import { linkIn, waitForMail } from './support/mail';
import { sql } from './support/site';

// Issue 15: the applicant's status link, the referrer typeahead at scale, the dealer's profile and security.

async function adminContext(baseURL: string | undefined) {
  const admin = await playwrightRequest.newContext({ baseURL });
  const login = await admin.post('/api/admin/login', { data: ADMIN });
  expect(login.ok()).toBe(true);
  return admin;
}

test('an applicant follows the status link from the email: received, under review, then rejected with the reason, then revoked', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('status');
  await applyAsDealer(page.request, email, { fullName: 'Stella Status' });
  const link = linkIn(await waitForMail(email, /Application received/), '/application/');
  await page.goto(link);
  // On the day it arrives the application is received; review starts the next business day (decision 0640).
  await expect(page.getByTestId('application-stage')).toHaveText('Received');
  await expect(page.getByText(/Review starts on \w+day, /)).toBeVisible();
  // A business day later (the application backdated four days, as time passing would): under review.
  await sql(`update dealers set created_at = now() - interval '4 days' where email = $1`, [email]);
  await page.reload();
  await expect(page.getByTestId('application-stage')).toHaveText('Under review');
  await expect(page.getByText('2-3 business days').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Book a Call is prefilled with the applicant's details.
  await page.getByRole('button', { name: 'Book a Call' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Full name')).toHaveValue('Stella Status');
  await expect(dialog.getByLabel('Email')).toHaveValue(email);
  await page.keyboard.press('Escape');

  const admin = await adminContext(baseURL);
  const { items } = await (await admin.get(`/api/admin/dealers?q=${encodeURIComponent(email)}`)).json();
  const id = items[0].id as string;
  const reject = await admin.post(`/api/admin/dealers/${id}/reject`, {
    data: { reason: 'No installers in your county yet' },
  });
  expect(reject.ok()).toBe(true);
  await page.reload();
  await expect(page.getByTestId('application-stage')).toHaveText('Rejected');
  await expect(page.getByTestId('rejection-reason')).toContainText('No installers in your county yet');

  expect((await admin.post(`/api/admin/dealers/${id}/status-link/revoke`)).ok()).toBe(true);
  await page.reload();
  await expect(page.getByTestId('status-not-found')).toBeVisible();
  await admin.dispose();
});

const SEEDED = 100_000;
test('a referrer is found among 100,000 dealers by typing three letters of the company name', async ({ page }) => {
  const [count] = await sql<{ n: string }>(`select count(*) as n from dealers where email like 'seed.%@seed.test'`);
  if (Number(count?.n ?? 0) < SEEDED) {
    // One set-based statement: realistic names and companies from word lists.
    await sql(
      `insert into dealers (tier, full_name, company_name, email, phone_e164, address_json, status, access_granted, updated_at)
       select 'Affiliate',
              (array['James','Maria','Robert','Linda','Michael','Sarah','David','Karen','Jose','Nancy'])[1 + i % 10] || ' ' ||
              (array['Smith','Garcia','Johnson','Brown','Lee','Miller','Davis','Lopez','Wilson','Moore'])[1 + (i / 10) % 10] || ' ' || i,
              (array['Sun','Attic','Bright','Cool','Prime','Green','Solar','Home','Peak','Blue'])[1 + (i / 100) % 10] || ' ' ||
              (array['Energy','Roofing','Comfort','Power','Solutions','Services','Systems','Works','Builders','Pros'])[1 + (i / 1000) % 10] || ' ' || i,
              'seed.' || i || '@seed.test', '+15125550100', '{"street":"1 Main St","city":"Austin","state":"TX","zipCode":"78701","country":"US"}',
              case when i % 5 = 0 then 'pending' else 'approved' end, true, now()
       from generate_series(1, ${SEEDED}) as s(i)`,
    );
  }
  const email = uniqueEmail('quokka');
  // The company is this run's own, so a retry on the same database finds one match, not two.
  const company = `Quokka Attic Works ${Date.now().toString(36)}`;
  const label = `Quinn Vale (${company})`;
  await sql(
    `insert into dealers (tier, full_name, company_name, email, phone_e164, status, access_granted, updated_at)
     values ('Preferred', 'Quinn Vale', $2, $1, '+15125550111', 'approved', true, now())`,
    [email, company],
  );

  await page.goto('/');
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  const wizard = page.getByTestId('registration-wizard');
  await wizard.getByRole('button', { name: 'Next' }).click();
  const picker = page.getByRole('combobox', { name: /How were you referred/ });
  await picker.click();
  await picker.pressSequentially('Quo', { delay: 80 });
  const option = page.getByRole('option', { name: label });
  await expect(option).toBeVisible();
  const all = await page.getByRole('option').allTextContents();
  expect(all.length).toBeLessThanOrEqual(21);
  expect(all.join(' ')).not.toContain('@');
  // Keyboard: down to the dealer, Enter.
  const index = all.indexOf(label);
  for (let i = 0; i <= index; i++) await picker.press('ArrowDown');
  await picker.press('Enter');
  await expect(picker).toHaveValue(label);
});
