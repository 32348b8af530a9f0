import { describe, expect, it } from 'vitest';
import { applicationStage, nextBusinessDay, reviewStartsOn } from './application-stage';

// Dates in 2026: Jan 2 is a Friday. New York is UTC-5 in January, UTC-4 in July.
const at = (iso: string) => new Date(iso);
const pending = (submittedAt: string, adminActed = false) => ({
  status: 'pending',
  submittedAt: at(submittedAt),
  adminActed,
});

describe('nextBusinessDay', () => {
  it('skips the weekend', () => {
    expect(nextBusinessDay('2026-01-05')).toBe('2026-01-06'); // Mon -> Tue
    expect(nextBusinessDay('2026-01-02')).toBe('2026-01-05'); // Fri -> Mon
    expect(nextBusinessDay('2026-01-03')).toBe('2026-01-05'); // Sat -> Mon
    expect(nextBusinessDay('2026-01-04')).toBe('2026-01-05'); // Sun -> Mon
    expect(nextBusinessDay('2026-12-31')).toBe('2027-01-01'); // Thu -> Fri, across the year
  });
});

describe('reviewStartsOn', () => {
  it('counts the submission day in New York, not UTC', () => {
    // Friday 23:30 in New York is already Saturday in UTC: review still starts Monday.
    expect(reviewStartsOn(at('2026-01-03T04:30:00Z'))).toBe('2026-01-05');
    // Thursday 22:00 in New York (Friday 02:00 UTC): review starts Friday.
    expect(reviewStartsOn(at('2026-07-03T02:00:00Z'))).toBe('2026-07-03');
  });
});

describe('applicationStage', () => {
  it('is received on the day it arrives, under review from the next business day', () => {
    const tue = pending('2026-01-06T15:00:00Z'); // Tue 10:00 New York
    expect(applicationStage(tue, at('2026-01-06T15:00:01Z'))).toBe('received');
    expect(applicationStage(tue, at('2026-01-07T04:59:59Z'))).toBe('received'); // Tue 23:59:59 New York
    expect(applicationStage(tue, at('2026-01-07T05:00:00Z'))).toBe('under_review'); // Wed 00:00 New York
  });

  it('is received over a weekend until Monday begins', () => {
    const fri = pending('2026-01-02T22:00:00Z'); // Fri 17:00 New York
    expect(applicationStage(fri, at('2026-01-04T20:00:00Z'))).toBe('received'); // Sunday
    expect(applicationStage(fri, at('2026-01-05T05:00:00Z'))).toBe('under_review'); // Monday 00:00
  });

  it('is under review at once when an admin has acted on it', () => {
    expect(applicationStage(pending('2026-01-06T15:00:00Z', true), at('2026-01-06T15:00:01Z'))).toBe('under_review');
  });

  it('is the decision once decided, whatever the day', () => {
    const now = at('2026-01-06T15:00:01Z');
    const fresh = { submittedAt: at('2026-01-06T15:00:00Z'), adminActed: false };
    expect(applicationStage({ ...fresh, status: 'rejected' }, now)).toBe('rejected');
    for (const status of ['approved', 'active', 'inactive', 'suspended']) {
      expect(applicationStage({ ...fresh, status }, now)).toBe('approved');
    }
  });
});
