import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, approveAsAdmin, INSTALLER_ANSWERS, uniqueEmail } from './support/accounts';
import { signInAs } from './support/admin';
import { seriousViolations } from './support/axe';
import { sql } from './support/site';
import { limit } from './support/time';

// Issue 36: a dealer's detail view in the admin console (every answer of the application by the
// wizard's steps, links opened safely, the referral by name, orders, commissions, the timeline and
// the table's decisions); the Link Referral picker offers referrers only; a reviewer reads the
// owner's settings without being able to change them.

/** The value beside a label on the detail view (a description list: dt, then dd). */
const answer = (page: Page, label: string) =>
  page
    .getByTestId('answer')
    .filter({ has: page.getByRole('term').getByText(label, { exact: true }) })
    .getByRole('definition');

test('the dealer detail view shows every answer of a submitted application and decides it as the table does', async ({
  page,
}) => {
  const tag = `dd${Date.now().toString(36)}`;
  const ritaEmail = uniqueEmail(`rita${tag}`);
  const janeEmail = uniqueEmail(`jane${tag}`);
  const rexEmail = uniqueEmail(`rex${tag}`);
  const recruiterId = `rita-${tag}`.slice(0, 20);

  // Rita, an approved dealer with an affiliate link; Rex, a rejected applicant.
  await applyAsDealer(page.request, ritaEmail, { fullName: `Rita ${tag}`, companyName: `Rita Attic ${tag}` });
  const ritaId = await approveAsAdmin(page.request, ritaEmail);
  await sql('update dealers set recruiter_id = $1 where id = $2', [recruiterId, ritaId]);
  await sql(
    `insert into affiliate_links (recruiter_id, dealer_id, affiliate_code, updated_at) values ($1, $2, $3, now())`,
    [recruiterId, ritaId, `code-${tag}`],
  );
  await applyAsDealer(page.request, rexEmail, { fullName: `Rex ${tag}` });
  const [rex] = await sql<{ id: string }>('select id from dealers where email = $1', [rexEmail]);
  const rejected = await page.request.post(`/api/admin/dealers/${rex!.id}/reject`, { data: { reason: 'No license' } });
  expect(rejected.ok()).toBe(true);

  // Jane applies as a Preferred dealer (its answers are every tier's fields) through Rita's link.
  await applyAsDealer(page.request, janeEmail, {
    tier: 'Preferred',
    fullName: `Jane ${tag}`,
    companyName: 'Attic Pros LLC',
    phoneE164: '(512) 555-0142',
    addressJson: { street: '12 Oak Ave', city: 'Austin', state: 'TX', zipCode: '78701' },
    ...INSTALLER_ANSWERS,
    productVerticals: ['Solar: Residential', 'Healthy Food & Water: Water'],
    dealerAgreementUrl: 'https://example.com/agreement.pdf',
    logoUrl: 'https://example.com/logo.png',
    recruiterId,
  });
  const [jane] = await sql<{ id: string }>('select id from dealers where email = $1', [janeEmail]);

  // The table: Jane's referral by the recruiter's name; Rita's own link is not a referral.
  await page.goto(`/admin?q=${tag}`);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  const janeRow = page.getByTestId('dealer-row').filter({ hasText: janeEmail });
  await expect(janeRow.getByText(`Referred by Rita ${tag}`)).toBeVisible();
  const ritaRow = page.getByTestId('dealer-row').filter({ hasText: ritaEmail });
  await expect(ritaRow.getByText('No referral')).toBeVisible();
  await expect(ritaRow.getByText(`Recruits as ${recruiterId}`)).toBeVisible();

  // Clicking the name opens the detail view, a route of its own.
  await janeRow.getByRole('link', { name: `Jane ${tag}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/dealers/${jane!.id}$`));
  await expect(page.getByTestId('dealer-detail-name')).toHaveText(`Jane ${tag}`);

  // Every answer, under the wizard's step titles.
  for (const [step, title] of [
    [1, 'Dealer Tier'],
    [2, 'Basic Information'],
    [3, 'Business Structure'],
    [4, 'Sales & Operations'],
    [5, 'Installation & Focus'],
    [6, 'Agreements & Documents'],
  ] as const) {
    await expect(page.getByTestId(`answers-step-${step}`).getByRole('heading')).toHaveText(`${step}. ${title}`);
  }
  const expected: [string, string | RegExp][] = [
    ['Tier', 'Preferred'],
    ['Full name', `Jane ${tag}`],
    ['Company name', 'Attic Pros LLC'],
    ['Email', janeEmail],
    ['Phone', '+15125550142'],
    ['Street address', '12 Oak Ave'],
    ['City', 'Austin'],
    ['State', 'TX'],
    ['ZIP code', '78701'],
    ['Country', 'US'],
    ['Referred by', `Rita ${tag} (Rita Attic ${tag}) · through the affiliate link ${recruiterId}`],
    ['Business entity type', 'LLC'],
    ['Licensed installers', 'Yes'],
    ['Installation crews', '3'],
    ['Insurance certificate', 'https://example.com/cert.pdf'],
    ['Maintains inventory', 'Yes'],
    ['Sales representatives', '2'],
    ['Monthly volume', '5,000 sq ft per month'],
    ['CRM', 'HubSpot'],
    ['Handles permitting', 'Yes'],
    ['Home performance services', 'Yes'],
    ['Product focus', /Solar: Residential\s*Healthy Food & Water: Water/],
    ['Agrees to the onboarding call', 'Yes'],
    ['Signed dealer agreement', 'https://example.com/agreement.pdf'],
    ['Company logo', 'https://example.com/logo.png'],
  ];
  for (const [label, value] of expected) await expect(answer(page, label), label).toHaveText(value);
  await expect(page.getByTestId('answer')).toHaveCount(expected.length);

  // Links open in a new tab without the console's window or address; the referrer opens their own view.
  for (const label of ['Insurance certificate', 'Signed dealer agreement', 'Company logo']) {
    const link = answer(page, label).getByRole('link');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expect(answer(page, 'Referred by').getByRole('link', { name: `Rita ${tag}` })).toHaveAttribute(
    'href',
    `/admin/dealers/${ritaId}`,
  );

  // Orders, commissions and the timeline.
  await expect(page.getByTestId('dealer-orders')).toBeVisible();
  await expect(page.getByTestId('dealer-commissions')).toBeVisible();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByText('Dealer signed up', { exact: true })).toBeVisible();

  // No serious or critical accessibility violation.
  expect(await seriousViolations(page)).toEqual([]);

  // The Link Referral picker offers approved and active dealers, never a rejected applicant.
  await page.getByRole('button', { name: 'Link Referral' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link Referral' });
  await dialog.getByLabel('Referring dealer').fill(tag);
  await expect(page.getByRole('option', { name: new RegExp(`Rita ${tag}`) })).toBeVisible();
  await expect(page.getByRole('option', { name: new RegExp(`Rex ${tag}`) })).toHaveCount(0);
  // Esc closes the options, then the dialog.
  await expect(async () => {
    if (await dialog.isVisible()) await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0, { timeout: limit(1_000) });
  }).toPass();

  // The decisions of the table: approve, then the actions of an approved dealer.
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Dealer approved', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send Approval Email' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.locator(`input[aria-label="Status of Jane ${tag}"]`)).toHaveValue('approved');

  // The activity log links back to the view.
  await page.getByRole('link', { name: 'All activity of this dealer' }).click();
  await expect(page).toHaveURL(/\/admin\/activity/);
  await page
    .getByRole('link', { name: `Jane ${tag}` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/dealers/${jane!.id}$`));

  // A link that is not a web address is shown, never opened.
  await sql(`update dealers set logo_url = 'javascript:alert(1)' where id = $1`, [jane!.id]);
  await page.reload();
  await expect(answer(page, 'Company logo')).toHaveText('javascript:alert(1) (not a web link: not opened)');
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);

  // An Affiliate's view says which steps it was not asked.
  const affEmail = uniqueEmail(`aff${tag}`);
  await applyAsDealer(page.request, affEmail, { fullName: `Aff ${tag}` });
  const [aff] = await sql<{ id: string }>('select id from dealers where email = $1', [affEmail]);
  await page.goto(`/admin/dealers/${aff!.id}`);
  await expect(page.getByTestId('answers-step-3')).toContainText('Not asked of Affiliates');
  await expect(answer(page, 'Business entity type')).toHaveText('Not answered');
  // A hand-edited id gets a word, not a failure.
  await page.goto('/admin/dealers/not-a-dealer');
  await expect(page.getByText('Unknown dealer')).toBeVisible();
});

test('a reviewer sees the owner-only settings read-only, with the word why', async ({ page }) => {
  const username = `reader.${Date.now().toString(36)}`;
  await sql(
    `insert into admins (username, password_hash, role, updated_at)
     select $1, password_hash, 'reviewer', now() from admins where username = $2`,
    [username, ADMIN.username],
  );
  await signInAs(page, username);

  // The first-order form: its URL and "Required" cannot change, and there is no Update.
  await page.goto('/admin/content');
  const form = page.getByTestId('form-Affiliate');
  const url = form.getByLabel('Google Form URL');
  await expect(url).toHaveAttribute('readonly', '');
  const before = await url.inputValue();
  await url.pressSequentially('x');
  await expect(url).toHaveValue(before);
  await expect(form.getByLabel('Required before the first order')).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Update' })).toHaveCount(0);
  await expect(form.getByText('Read-only: only owners may change this setting.')).toBeVisible();

  // The commission rules: values and hold days read-only, no Save.
  await page.goto('/admin/commissions');
  const rule = page.getByTestId('rule-Affiliate');
  for (const label of ['Value', 'Hold days']) await expect(rule.getByLabel(label)).toHaveAttribute('readonly', '');
  await rule.getByLabel('Type', { exact: true }).click();
  await expect(page.getByRole('option', { name: 'Fixed $' })).toHaveCount(0);
  await expect(rule.getByRole('button', { name: /Save/ })).toHaveCount(0);
  await expect(rule.getByText('Read-only: only owners may change this setting.')).toBeVisible();
  // Whose tier the card is (issue 36): the referred dealer's, in words.
  await expect(rule.getByRole('heading', { name: 'Referred dealer: Affiliate' })).toBeVisible();
  await expect(rule).toContainText("the referred dealer's tier, not the recruiter's");
});

test('an owner edits the same settings', async ({ page }) => {
  await signInAs(page, ADMIN.username);
  await page.goto('/admin/content');
  const form = page.getByTestId('form-Affiliate');
  await expect(form.getByLabel('Google Form URL')).not.toHaveAttribute('readonly', '');
  await expect(form.getByRole('button', { name: 'Update' })).toBeVisible();
  await expect(page.getByTestId('owner-only-note')).toHaveCount(0);
  await page.goto('/admin/commissions');
  const rule = page.getByTestId('rule-Affiliate');
  await expect(rule.getByLabel('Value')).not.toHaveAttribute('readonly', '');
  await expect(rule.getByRole('button', { name: 'Save Affiliate rule' })).toBeVisible();
});
