import { expect, type Page, test } from '@playwright/test';
import { ADMIN } from './global-setup';
import { applyAsDealer, uniqueEmail } from './support/accounts';
import { signInAs } from './support/admin';

// Issue 36: at 390 px every public page and every admin section fits the screen (no sideways
// scroll) and every button is a 44 px touch target.

const PUBLIC = ['/', '/about', '/presentation', '/resources', '/login', '/register', '/admin/login'];
const ADMIN_PAGES = [
  '/admin',
  '/admin/applications',
  '/admin/calls',
  '/admin/commissions',
  '/admin/payouts',
  '/admin/activity',
  '/admin/team',
  '/admin/content',
  '/admin/claims',
  '/admin/webhook',
  '/admin/account',
];

/** What is wrong with the page at this width: its overflow and its buttons under 44 px tall. */
function faults(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.scrollWidth;
    if (width > window.innerWidth) out.push(`document is ${width} px wide`);
    for (const b of document.querySelectorAll<HTMLElement>('button, [role="button"], a[data-button]')) {
      const r = b.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(b).visibility === 'hidden') continue;
      if (b.closest('[aria-hidden="true"]')) continue;
      if (r.height < 44) {
        const name = (b.getAttribute('aria-label') || b.textContent || b.outerHTML.slice(0, 60)).trim();
        out.push(`button "${name}" is ${Math.round(r.height)} px tall`);
      }
    }
    return out;
  });
}

async function sweep(page: Page, paths: string[]) {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator('h1, h2').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const f = await faults(page);
    if (f.length) found[path] = f;
  }
  return found;
}

test.use({ viewport: { width: 390, height: 844 } });

test('at 390 px every public page fits and its buttons are 44 px touch targets', async ({ page }) => {
  expect(await sweep(page, PUBLIC)).toEqual({});
});

test('at 390 px every admin section fits and its buttons are 44 px touch targets', async ({ page }) => {
  // A pending application, so the dealer list shows a card with its selects and actions.
  await applyAsDealer(page.request, uniqueEmail('sweep'), { fullName: 'Sweep Phone Dealer' });
  await signInAs(page, ADMIN.username);
  await page.goto('/admin');
  await expect(page.getByTestId('dealer-row').first()).toBeVisible();
  // The six summary cards: two across, equal heights in a row, all within the first screen.
  const boxes = await page
    .locator('[data-testid^="card-"]')
    .evaluateAll((cards) =>
      cards
        .map((c) => c.getBoundingClientRect())
        .map((r) => ({ top: Math.round(r.top), h: Math.round(r.height), bottom: r.bottom + window.scrollY })),
    );
  expect(boxes).toHaveLength(6);
  for (let i = 0; i < 6; i += 2) {
    expect(boxes[i]!.top).toBe(boxes[i + 1]!.top);
    expect(boxes[i]!.h).toBe(boxes[i + 1]!.h);
  }
  expect(Math.max(...boxes.map((b) => b.bottom))).toBeLessThan(844);
  expect(await sweep(page, ADMIN_PAGES)).toEqual({});
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('no badge or select has its text cut without the full text available (issue 36)', async ({ page }) => {
    // A scheduled call (its status badge) and a sign-in (the activity log's event badge).
    const res = await page.request.post('/api/schedule-call', {
      data: {
        name: 'Badge Width',
        email: `badge.${Date.now().toString(36)}@example.com`,
        phone: '(512) 555-0100',
        preferredDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        preferredTime: 'morning',
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    await signInAs(page, ADMIN.username);
    const found: Record<string, string[]> = {};
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page.locator('h1, h2').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      const cut = await page.evaluate(() => {
        const out: string[] = [];
        const hasFull = (el: Element) => el.closest('[title], [aria-label]') !== null;
        for (const label of document.querySelectorAll<HTMLElement>('.mantine-Badge-label')) {
          if (label.getClientRects().length && label.scrollWidth > label.clientWidth + 1 && !hasFull(label))
            out.push(`badge "${label.textContent}"`);
        }
        for (const input of document.querySelectorAll<HTMLInputElement>('input.mantine-Select-input')) {
          if (input.getClientRects().length && input.scrollWidth > input.clientWidth + 1 && !input.title)
            out.push(`select "${input.value}"`);
        }
        return out;
      });
      if (cut.length) found[path] = cut;
    }
    expect(found).toEqual({});
  });
});
