import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents } from './money';
import {
  calculateSavings,
  SAVINGS_MESSAGES,
  SAVINGS_REGION_KEYS,
  type SavingsInput,
  savingsInput,
  yearSavings,
} from './savings';

const money = (c: bigint) => formatCents(c);

describe('the worked example (docs/decisions/0710-savings-calculator.md; e2e checks the same numbers)', () => {
  const r = calculateSavings(
    savingsInput.parse({ atticSqFt: '1500', bills: ['200', '240'], region: 'hot', quote: '' }),
  );
  it('bill, heating and cooling share, first-year range and cap', () => {
    expect(money(r.monthlyBillCents)).toBe('220.00');
    expect(money(r.annualBillCents)).toBe('2640.00');
    expect(money(r.annualHvacCents)).toBe('1584.00'); // 60% in a hot climate
    expect(money(r.firstYear.low)).toBe('396.00'); // 25% of 1,584
    expect(money(r.firstYear.high)).toBe('792.00'); // 50% of 1,584 = the 30% cap of 2,640
    expect(money(r.capCents)).toBe('792.00');
    expect(money(r.acLossCents)).toBe('110.88'); // 7% of 1,584
  });
  it('five years at +10% a year; no incentive in effect: the net cost is the price', () => {
    expect(r.years.map((y) => money(y.billCents))).toEqual(['2640.00', '2904.00', '3194.40', '3513.84', '3865.22']);
    expect(r.years.map((y) => money(y.savings.low))).toEqual(['396.00', '435.60', '479.16', '527.08', '579.78']);
    expect(r.years.map((y) => money(y.savings.high))).toEqual(['792.00', '871.20', '958.32', '1054.15', '1159.57']);
    expect(money(r.total.low)).toBe('2417.62');
    expect(money(r.total.high)).toBe('4835.24');
    expect(money(r.installedCents)).toBe('2250.00'); // 1,500 sq ft x $1.50
    expect(r.priceFromQuote).toBe(false);
    expect(r.incentives).toEqual([]);
    expect(money(r.netCostCents)).toBe('2250.00');
    expect(r.paybackYear).toEqual({ low: 5, high: 3 });
  });
  it('a quote replaces the estimated price', () => {
    const q = calculateSavings(
      savingsInput.parse({ atticSqFt: '1500', bills: ['220'], region: 'hot', quote: '$3,000.50' }),
    );
    expect(money(q.installedCents)).toBe('3000.50');
    expect(money(q.netCostCents)).toBe('3000.50');
    expect(q.priceFromQuote).toBe(true);
  });
  it('incentives in effect lower the net cost: a percent up to its cap, then an amount, never below $0', () => {
    const input = savingsInput.parse({ atticSqFt: '1500', bills: ['220'], region: 'hot', quote: '$3,000.50' });
    const pct = { id: 'a', text: 'State rebate', percent: '30.00', amount: null, cap: null };
    expect(money(calculateSavings(input, [pct]).incentives[0]!.cents)).toBe('900.15');
    const capped = { ...pct, cap: '500.00' };
    const fixed = { id: 'b', text: 'Utility rebate', percent: null, amount: '250.00', cap: null };
    const r = calculateSavings(input, [capped, fixed]);
    expect(r.incentives.map((i) => money(i.cents))).toEqual(['500.00', '250.00']);
    expect(money(r.incentivesCents)).toBe('750.00');
    expect(money(r.netCostCents)).toBe('2250.50');
    const big = { ...fixed, amount: '5000.00' };
    const all = calculateSavings(input, [capped, big]);
    expect(money(all.netCostCents)).toBe('0.00');
    expect(money(all.incentivesCents)).toBe('3000.50');
  });
});

describe('input', () => {
  it('refuses what is not an attic, a bill or a region, with its message', () => {
    const r = savingsInput.safeParse({ atticSqFt: '12', bills: ['abc', '0'], region: 'moon', quote: '-5' });
    expect(r.success).toBe(false);
    const messages = r.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toEqual(
      expect.arrayContaining([SAVINGS_MESSAGES.attic, SAVINGS_MESSAGES.bill, SAVINGS_MESSAGES.region]),
    );
    expect(
      savingsInput.safeParse({ atticSqFt: '1000', bills: [], region: 'hot', quote: '' }).error?.issues[0]?.message,
    ).toBe(SAVINGS_MESSAGES.bills);
    expect(savingsInput.safeParse({ atticSqFt: '1e3', bills: ['1'], region: 'hot', quote: '' }).success).toBe(false);
  });
});

const inputArb: fc.Arbitrary<SavingsInput> = fc.record({
  atticSqFt: fc.integer({ min: 100, max: 20_000 }),
  bills: fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { minLength: 1, maxLength: 12 }),
  region: fc.constantFrom(...SAVINGS_REGION_KEYS),
  quote: fc.option(fc.bigInt({ min: 1n, max: 10_000_000n }), { nil: null }),
});

describe('properties (integer cents throughout)', () => {
  it('the totals are exactly the sums of the yearly lines; credit plus net cost is the price', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = calculateSavings(input, [{ id: 'x', text: 'x', percent: '30.00', amount: null, cap: '1200.00' }]);
        const low = r.years.reduce((s, y) => s + y.savings.low, 0n);
        const high = r.years.reduce((s, y) => s + y.savings.high, 0n);
        return r.total.low === low && r.total.high === high && r.incentivesCents + r.netCostCents === r.installedCents;
      }),
    );
  });
  it('low <= high, never above 30% of a year bill, bills rise every year, first year = year 1', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = calculateSavings(input);
        return (
          r.years.every((y) => y.savings.low <= y.savings.high && y.savings.high * 10n <= y.billCents * 3n + 5n) &&
          r.years.every((y, i) => i === 0 || y.billCents > (r.years[i - 1]?.billCents ?? 0n)) &&
          r.firstYear === r.years[0]?.savings &&
          r.annualBillCents === r.monthlyBillCents * 12n
        );
      }),
    );
  });
  it('the monthly bill is the average of the bills, to the cent', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = calculateSavings(input);
        const total = input.bills.reduce((s, b) => s + b, 0n);
        const n = BigInt(input.bills.length);
        const diff = r.monthlyBillCents * n - total;
        return diff * 2n <= n && -diff * 2n <= n;
      }),
    );
  });
  it('a larger bill never saves less', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.constantFrom(5_000n, 5_500n, 6_000n),
        fc.constantFrom(2_500n, 5_000n),
        (bill, more, share, rate) => yearSavings(bill, share, rate) <= yearSavings(bill + more, share, rate),
      ),
    );
  });
});
