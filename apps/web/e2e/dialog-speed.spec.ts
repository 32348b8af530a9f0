import { expect, type Page, test } from '@playwright/test';

// Issue 36: the first click on Enroll Now, Schedule Call or the phone menu answers within 100 ms
// (decision 0992), counted in frames (see watch): on the prerendered landing a veil shows at once
// while the app loads; in the app the dialogs' code is loaded when the page is idle.

/**
 * How the page answers the next click with the first element matching `selector`: `frames` is how
 * many frames the page drew after the click without it (0: in the DOM before the first frame after
 * the click, drawn in that frame), `ms` the milliseconds from the click to it.
 *
 * The check is on frames, not milliseconds (issue 46): "within 100 ms" on a quiet machine means "in
 * the first frame or the next" (a frame is ~16 ms), and a frame count does not grow when the machine
 * is busy, while the milliseconds do. What the budget guards against still fails it: a code download
 * or React's suspense fallback (kept ~300 ms, about 18 frames) leaves many frames drawn without the
 * answer. The milliseconds are only shown.
 */
async function watch(page: Page, selector: string) {
  await page.evaluate((sel) => {
    const w = window as unknown as { __answer: Promise<{ frames: number; ms: number }> };
    w.__answer = new Promise((resolve) => {
      document.addEventListener(
        'click',
        (e) => {
          const start = e.timeStamp;
          const seen = () => document.querySelector(sel);
          let frames = 0;
          let done = false;
          const answer = () => {
            if (done) return;
            done = true;
            resolve({ frames, ms: Math.round(performance.now() - start) });
          };
          if (seen()) return answer();
          const obs = new MutationObserver(() => {
            if (seen()) {
              obs.disconnect();
              answer();
            }
          });
          obs.observe(document.body, { childList: true, subtree: true });
          // A frame callback runs before its frame is drawn: what is in the DOM then is in that frame.
          const frame = () => {
            if (done) return;
            if (seen()) return answer();
            frames++;
            requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        },
        { capture: true, once: true },
      );
    });
  }, selector);
  return async () => {
    const a = await page.evaluate(
      () => (window as unknown as { __answer: Promise<{ frames: number; ms: number }> }).__answer,
    );
    // In the first frame after the click or the next one (the call dialog draws its frame with the
    // click and its form in the next frame, decision 0992).
    expect(a.frames, `answered after ${a.frames} frames drawn without it (${a.ms} ms)`).toBeLessThanOrEqual(1);
    return a;
  };
}

test('on the prerendered landing, Enroll Now answers at once, then the wizard opens', async ({ page }) => {
  await page.goto('/');
  const answered = await watch(page, '[data-testid="app-loading"], [role="dialog"]');
  await page.getByRole('button', { name: 'Enroll Now' }).click();
  await answered();
  await expect(page.getByRole('dialog', { name: 'Dealer Application' })).toBeVisible();
  await expect(page.getByTestId('app-loading')).toHaveCount(0);
});

test('in the app, Schedule Call and the phone menu open within 100 ms: their code is loaded when idle', async ({
  page,
}) => {
  await page.goto('/presentation');
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    performance.getEntriesByType('resource').some((r) => /ScheduleCallDialog/.test(r.name)),
  );
  const dialog = await watch(page, '[role="dialog"]');
  await page.getByRole('button', { name: 'Book My Call' }).click();
  await dialog();
  await expect(page.getByRole('dialog')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/about');
  await page.waitForFunction(() =>
    performance.getEntriesByType('resource').some((r) => /MobileMenuDrawer/.test(r.name)),
  );
  const drawer = await watch(page, '[role="dialog"]');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await drawer();
});
