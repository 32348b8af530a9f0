import { describe, expect, it } from 'vitest';
import {
  answerTime,
  containsLink,
  jobReviewInput,
  RATING_INVALID,
  REVIEW_COMMENT_NO_LINKS,
  ratePercent,
} from './job-reviews';

/** Issue 50: a review's rules (decision 1100): whole stars 1 to 5, a comment that is text only. */
describe('job reviews', () => {
  const parse = (over: Record<string, unknown>) => jobReviewInput.safeParse({ token: 't', rating: 5, ...over });
  const messageOf = (over: Record<string, unknown>) => {
    const r = parse(over);
    return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('takes 1 to 5 whole stars, and nothing else', () => {
    for (const rating of [1, 2, 3, 4, 5]) expect(parse({ rating }).success).toBe(true);
    for (const rating of [0, 6, 4.5, -1, '5', null, undefined, Number.NaN]) {
      expect(messageOf({ rating }), String(rating)).toEqual([`rating: ${RATING_INVALID}`]);
    }
  });

  it('keeps a comment trimmed, drops an empty one, defaults consent to false', () => {
    expect(parse({ comment: '  Great crew, on time.  ' }).data).toEqual({
      token: 't',
      rating: 5,
      comment: 'Great crew, on time.',
      publicConsent: false,
    });
    expect(parse({ comment: '   ', publicConsent: true }).data).toEqual({ token: 't', rating: 5, publicConsent: true });
    expect(messageOf({ comment: 'x'.repeat(2001) })).toEqual(['comment: Comment must be at most 2000 characters']);
    expect(messageOf({ publicConsent: 'yes' })).toEqual(['publicConsent: Public consent must be true or false']);
  });

  it('refuses links, web addresses and email addresses in a comment, and says why', () => {
    for (const text of [
      'see https://evil.example/x',
      'HTTP://EVIL.EXAMPLE',
      'ftp://files.example.org',
      'visit www.cheap-fans.biz today',
      'www2.example.fr',
      'go to cheap-fans.com now',
      'bit.ly/abc',
      'mail me at joe@example.com',
      'javascript:alert(1)',
      'mailto:joe',
      'evil.example/login',
      'Great job (example.net)',
      'installers.co.uk',
    ]) {
      expect(containsLink(text), text).toBe(true);
      expect(messageOf({ comment: text }), text).toEqual([`comment: ${REVIEW_COMMENT_NO_LINKS}`]);
    }
  });

  it('keeps ordinary sentences, amounts and sloppy full stops', () => {
    for (const text of [
      'Great crew. On time, clean, $1,450.00 as quoted.',
      'Done in 2.5 hours; e.g. the attic fan works.',
      'They came on time.It works great',
      'Is it worth it? Yes.so happy',
      'Rated 4.5/5 by me',
      'Time: 10:30 to 12:00',
    ]) {
      expect(containsLink(text), text).toBe(false);
    }
  });

  it('writes answer times and rates for people', () => {
    expect(answerTime(null)).toBe('—');
    expect(answerTime(42.4)).toBe('42 min');
    expect(answerTime(185)).toBe('3 h 5 min');
    expect(answerTime(120)).toBe('2 h');
    expect(answerTime(52 * 60)).toBe('2 d 4 h');
    expect(ratePercent(2 / 3)).toBe('67%');
    expect(ratePercent(null)).toBe('—');
  });
});
