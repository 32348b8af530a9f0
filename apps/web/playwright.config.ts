import { defineConfig, devices } from '@playwright/test';
import { limit } from './e2e/support/time';

/** The specs that move the e2e server's shared clock (e2e/support/clock.ts advanceClock). */
const MOVE_THE_CLOCK = ['**/review-promises.spec.ts', '**/jobs-network.spec.ts', '**/scores-50.spec.ts'];
const chromium = { ...devices['Desktop Chrome'], channel: undefined };

/** Browser tests against the production build served by the api (see e2e/global-setup.ts). */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  // Three: the suite waits more than it computes (16 minutes of wall time for 8m37s of CPU with
  // two; decision 1330).
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  // Limits that catch a hang, not a slow machine (issue 46: the suite passes with both cores busy).
  // Beside the integration and security suites (decision 1330) at a load average of 23, a dealer's
  // dashboard took over 20 s to draw its first heading and the onboarding journey 1.7 minutes.
  timeout: limit(180_000),
  expect: { timeout: limit(45_000) },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // A failed test's trace keeps its actions, DOM snapshots and network, not a film: the film is a
    // screencast of every page of every test, which has Chromium's compositor draw and encode frames
    // at nice -8 beside the pages. With three workers it took most of both cores: 50 console rows
    // took 15 s to draw instead of 3, and bulk review ran past its limits (decision 1360).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Chromium 156's address-bar popup, a WebUI page it preloads in a renderer of its own for each
        // window: one per browser context, beside the page's, for nothing a test looks at (decision
        // 1350 measured 1.8 s of its main thread during one page load).
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
      ],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: MOVE_THE_CLOCK, use: chromium },
    // One at a time, beside the others: each reads the server's clock, then moves it to a moment it
    // computed from that reading, and must not have the other move it in between (issue 46). Last:
    // a move stays for the rest of the run, and specs that write rows with the database's now() read
    // them through the server's moved clock (listed first, the System chart's samples fell out of
    // its 24 hours; decision 1330). So they run one after another at the end, about 3 minutes.
    { name: 'clock', testMatch: MOVE_THE_CLOCK, workers: 1, use: chromium },
  ],
});
