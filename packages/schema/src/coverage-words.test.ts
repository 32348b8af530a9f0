import { describe, expect, it } from 'vitest';
import { eventLabel } from './coverage-words';
import { APPROVAL_WORDS, displayDateTime } from './payouts-console';
import { wordingFaults } from './words';

describe('words people read (issue 47)', () => {
  it('one date and time format, in the reader’s zone', () => {
    expect(displayDateTime('2026-11-29T12:00:00Z', 'UTC')).toBe('Nov 29, 2026, 12:00 PM UTC');
    expect(displayDateTime('2026-11-29T12:00:00Z', 'America/New_York')).toBe('Nov 29, 2026, 7:00 AM EST');
  });
  it('event codes become words', () => {
    expect(eventLabel('dealer.signed_up')).toBe('Dealer signed up');
    expect(eventLabel('DEALER.SIGNED_UP')).toBe('Dealer signed up');
    expect(eventLabel('payout.ach_downloaded')).toBe('Payout ACH downloaded');
    expect(eventLabel('')).toBe('');
  });
  it('a partial approval says so for 0, 1 and 2', () => {
    const texts = [0, 1, 2].flatMap((n) => [APPROVAL_WORDS.title(n, 1), APPROVAL_WORDS.title(1, n + 1)]);
    expect(texts).toContain('No commission approved · 1 commission skipped');
    expect(texts).toContain('2 commissions approved · 1 skipped');
    for (const t of texts) expect(wordingFaults(t)).toEqual([]);
  });
});
