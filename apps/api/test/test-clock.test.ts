import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/env';
import { FileClock } from '../src/lib/clock';

const dir = mkdtempSync(join(tmpdir(), 'dn-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const production = {
  NODE_ENV: 'production',
  DATA_DIR: dir,
  SESSION_SECRET: 'a-real-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
};

describe('the test clock (TEST_CLOCK_FILE, issue 38)', () => {
  it('is refused in production unless ALLOW_TEST_CLOCK=1, and read elsewhere', () => {
    const file = join(dir, 'offset');
    expect(() => loadConfig({ ...production, TEST_CLOCK_FILE: file })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, TEST_CLOCK_FILE: file })).toThrow(/TEST_CLOCK_FILE/);
    expect(loadConfig({ ...production, TEST_CLOCK_FILE: file, ALLOW_TEST_CLOCK: '1' }).testClockFile).toBe(file);
    expect(loadConfig({ ...production }).testClockFile).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, TEST_CLOCK_FILE: file }).testClockFile).toBe(file);
  });

  it('adds the offset in the file, rereading it; no file reads as no offset', () => {
    const file = join(dir, 'clock');
    const clock = new FileClock(file);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1_000);
    writeFileSync(file, String(86_400_000));
    expect(clock.now().getTime() - Date.now()).toBeGreaterThan(86_400_000 - 1_000);
    writeFileSync(file, 'garbage');
    expect(clock.offsetMs()).toBe(0);
  });
});
