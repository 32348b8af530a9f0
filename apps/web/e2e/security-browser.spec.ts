import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { adminSection } from './support/admin';

/**
 * Browser-side security: the app runs under its Content-Security-Policy, injected script is
 * blocked, sign-in never sends the browser off-site, and stored XSS payloads from the public
 * forms render as inert text in the admin console.
 */

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=2</script>',
  '"><svg onload="window.__xss=3">',
  'javascript:window.__xss=4//',
  '{{constructor.constructor("window.__xss=5")()}}',
];

/** Fails the test on any dialog, and collects CSP violations reported by the page. */
function watch(page: Page) {
  const violations: string[] = [];
  page.on('dialog', (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

test('the app works under its CSP with no violations, and inline script is refused', async ({ page }) => {
  const violations = watch(page);
  for (const path of ['/', '/login', '/admin/login', '/about']) {
    const res = await page.goto(path);
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    await expect(page.locator('#root')).not.toBeEmpty();
  }
  expect(violations).toEqual([]);
  // An injected inline script does not run.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.appendChild(s);
  });
  expect(await page.evaluate(() => (window as { __inline?: number }).__inline)).toBeUndefined();
  // The browser reported the refusal: the watcher sees violations, so the empty lists above mean something.
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

test('a token page sends no referrer, and the API refuses a cross-site write', async ({ page, request }) => {
  const res = await page.goto(`/login?token=${'A'.repeat(43)}`);
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  const forged = await request.post('/api/dealer/login', {
    headers: { origin: 'https://evil.example' },
    data: { username: 'x@example.com', password: 'whatever' },
  });
  expect(forged.status()).toBe(403);
});

test('sign-in stays on this site whatever the address asks', async ({ page, baseURL }) => {
  await page.goto('/admin/login?redirect=https://evil.example/&next=//evil.example&returnTo=https:%2F%2Fevil.example');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: /sign in|log in/i }).click();
  await expect(page).toHaveURL(/\/admin$/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});

test('stored XSS from signup and call booking renders as text in the admin console', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  for (const [i, payload] of PAYLOADS.entries()) {
    const signup = await request.post('/api/dealer-signup', {
      data: {
        tier: 'Affiliate',
        fullName: `${payload} ${tag}`,
        companyName: payload,
        email: `xss.${tag}.${i}@example.com`,
        phoneE164: '5125550100',
        addressJson: { street: payload, city: payload, state: payload.slice(0, 60), zipCode: '<img src=x>' },
        referredBy: 'none',
        onboardingCallOk: true,
      },
    });
    expect(signup.status(), await signup.text()).toBeLessThan(300);
    const call = await request.post('/api/schedule-call', {
      data: {
        name: `${payload} ${tag}`,
        email: `xss.call.${tag}.${i}@example.com`,
        phone: '5125550100',
        preferredDate: date,
        preferredTime: 'morning',
        notes: payload,
      },
    });
    expect(call.status(), await call.text()).toBeLessThan(300);
  }

  const violations = watch(page);
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: /sign in|log in/i }).click();
  await expect(page).toHaveURL(/\/admin$/);

  // Dealer Profiles: each payload is visible literally, as the text it is. The list is paged
  // (50 newest first) and other specs add dealers on the same database in parallel, so look the
  // rows up by this test's tag, as an admin would.
  await page.goto(`/admin?q=${tag}`);
  for (const payload of PAYLOADS) await expect(page.getByText(`${payload} ${tag}`).first()).toBeVisible();
  await adminSection(page, 'Calls').click();
  for (const payload of PAYLOADS) await expect(page.getByText(`${payload} ${tag}`).first()).toBeVisible();

  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"], svg[onload]').count()).toBe(0);
  // The console itself runs under the CSP without tripping it.
  expect(violations).toEqual([]);
});

test('the dealer dashboard with its Google Form frame runs under the CSP', async ({ page, playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  const { approvedDealer } = await import('./support/accounts');
  const { ADMIN } = await import('./global-setup');
  await admin.post('/api/admin/login', { data: ADMIN });
  // Preferred: no other spec configures that tier's form (they share the e2e database).
  const form = await admin.put('/api/admin/first-order-forms/Preferred', {
    data: { formUrl: 'https://docs.google.com/forms/d/e/security-e2e/viewform', isRequired: true },
  });
  expect(form.status(), await form.text()).toBeLessThan(300);
  const violations = watch(page);
  await approvedDealer(page.request, admin, { tier: 'Preferred', entityType: 'LLC', salesReps: 2, monthlyVolume: 500 });
  await page.goto('/dashboard');
  const frame = page.locator('iframe[src*="docs.google.com"]');
  await expect(frame).toHaveCount(1);
  expect(violations).toEqual([]);
  await admin.dispose();
});
