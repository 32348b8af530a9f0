import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from './admin-messages';
import { article, noun, plural, withArticle, wordingFaults } from './words';

describe('plural and article (issue 36)', () => {
  it('counts a noun with its plural for 0, 1 and 2', () => {
    expect([0, 1, 2].map((n) => plural(n, 'entry', 'entries'))).toEqual(['0 entries', '1 entry', '2 entries']);
    expect([0, 1, 2].map((n) => plural(n, 'other session'))).toEqual([
      '0 other sessions',
      '1 other session',
      '2 other sessions',
    ]);
    expect(plural(1200, 'dealer')).toBe('1,200 dealers');
    expect(noun(1, 'day')).toBe('day');
  });

  it('chooses "a" or "an" by the sound of the next word', () => {
    expect(withArticle('Affiliate dealer')).toBe('an Affiliate dealer');
    expect(withArticle('Authorized dealer')).toBe('an Authorized dealer');
    expect(withArticle('Preferred dealer')).toBe('a Preferred dealer');
    expect(withArticle('owner')).toBe('an owner');
    expect(withArticle('reviewer')).toBe('a reviewer');
    expect(withArticle('viewer')).toBe('a viewer');
    expect(article('hour')).toBe('an');
    expect(article('user')).toBe('a');
    expect(article('one-time link')).toBe('a');
  });

  it('the check finds each fault the issue names, and passes good text', () => {
    expect(wordingFaults('to become a Affiliate dealer')).toHaveLength(1);
    expect(wordingFaults('as a owner')).toHaveLength(1);
    expect(wordingFaults('an dealer')).toHaveLength(1);
    expect(wordingFaults('$10.00 for 1 recruiters')).toHaveLength(1);
    expect(wordingFaults('1 other sessions signed out')).toHaveLength(1);
    expect(wordingFaults('2 other session(s) ended')).toHaveLength(1);
    expect(wordingFaults('1 entries')).toHaveLength(1);
    expect(
      wordingFaults('an Affiliate dealer, a Preferred dealer, an hour, a user, 1 entry, 2 entries, 1 business day'),
    ).toEqual([]);
  });
});

/** How each message function is called, per count (money as the wire sends it). */
const CALLS: Record<string, (n: number) => unknown[]> = {
  'undo.detail': (n) => [n],
  'updateForm.success': () => ['Affiliate'],
  'importOrders.detail': (n) => [{ imported: n, skipped: n, rejected: n }],
  'approveCommissions.success': (n) => [n],
  'approveCommissions.skipped': (n) => [n, 'Already paid'],
  'saveRule.success': () => ['Authorized'],
  'createPayout.detail': (n) => ['1234.50', n],
  'changePassword.detail': (n) => [n],
};

/** Every message of ADMIN_MESSAGES, its functions called with counts 0, 1 and 2; fails on a function CALLS misses. */
function renderedMessages(): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'function') {
      const call = CALLS[path];
      if (!call) throw new Error(`ADMIN_MESSAGES.${path} has no test call: add it to CALLS`);
      for (const n of [0, 1, 2]) out.push(String(v(...call(n))));
    } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  walk(ADMIN_MESSAGES, '');
  return out;
}

describe('ADMIN_MESSAGES read right for 0, 1 and 2', () => {
  const texts = renderedMessages();
  it('renders every message', () => {
    expect(texts.length).toBeGreaterThan(60);
  });
  it.each(texts.map((t) => [t]))('%s', (t) => {
    expect(wordingFaults(t)).toEqual([]);
  });
  it('names counts in words and money with its sign', () => {
    expect(ADMIN_MESSAGES.createPayout.detail('1234.50', 1)).toBe('$1,234.50 for 1 recruiter');
    expect(ADMIN_MESSAGES.createPayout.detail('1234.50', 2)).toBe('$1,234.50 for 2 recruiters');
    expect(ADMIN_MESSAGES.changePassword.detail(1)).toBe('1 other session signed out');
    expect(ADMIN_MESSAGES.approveCommissions.success(1)).toBe('1 commission approved');
    expect(ADMIN_MESSAGES.undo.detail(1)).toBe('1 dealer changed since was kept. No email was sent.');
  });
});
