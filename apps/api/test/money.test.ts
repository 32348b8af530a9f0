import { divRoundHalfUp, formatCents, parseCents, percentOfCents, sumMoney } from '@dn/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** The money helpers (packages/schema/src/money.ts): exact, half-up, never a float. */

/** parseCents reads up to 12 integer digits: far above numeric(12,2). */
const cents = fc.bigInt({ min: -(10n ** 14n) + 1n, max: 10n ** 14n - 1n });

/** Reference rounding from quotient and remainder (not the helper's formula). */
function refHalfUp(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = a / d;
  const r = a % d;
  const rounded = 2n * r >= d ? q + 1n : q;
  return neg ? -rounded : rounded;
}

describe('money', () => {
  it('formats and parses back exactly', () => {
    fc.assert(fc.property(cents, (c) => parseCents(formatCents(c)) === c));
  });

  it('reads dollars with 0, 1 or 2 decimals as the cents they mean', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 11n }), fc.integer({ min: 0, max: 99 }), (d, c) => {
        expect(parseCents(`${d}.${String(c).padStart(2, '0')}`)).toBe(d * 100n + BigInt(c));
        expect(parseCents(`${d}`)).toBe(d * 100n);
        expect(parseCents(`${d}.${c % 10}`)).toBe(d * 100n + BigInt((c % 10) * 10));
      }),
    );
  });

  it('refuses what is not money', () => {
    for (const bad of ['', '.5', '1.234', '1e3', '0x10', '1,000.00', 'NaN', '12.', ' - 1', '１２']) {
      expect(parseCents(bad), bad).toBeNull();
    }
  });

  it('rounds half up (away from zero), like PostgreSQL round()', () => {
    fc.assert(
      fc.property(cents, fc.bigInt({ min: 1n, max: 10n ** 6n }), (n, d) => divRoundHalfUp(n, d) === refHalfUp(n, d)),
    );
    expect(divRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divRoundHalfUp(-5n, 10n)).toBe(-1n);
  });

  it('takes a percentage to the cent, never negative for a positive amount', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        fc.integer({ min: 0, max: 10_000 }),
        (amount, hundredths) => {
          const pct = formatCents(BigInt(hundredths));
          const got = percentOfCents(amount, pct);
          expect(got).toBe(refHalfUp(amount * BigInt(hundredths), 10_000n));
          expect(got >= 0n && got <= amount).toBe(true);
        },
      ),
    );
    expect(percentOfCents(123455n, '10.00')).toBe(12346n); // 123.455 -> 123.46
  });

  it('sums exactly where floats drift', () => {
    expect(sumMoney(['0.10', '0.20'])).toBe('0.30');
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), { maxLength: 50 }), (xs) => {
        expect(sumMoney(xs.map(formatCents))).toBe(formatCents(xs.reduce((a, b) => a + b, 0n)));
      }),
    );
  });
});
