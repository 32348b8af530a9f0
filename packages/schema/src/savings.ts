import { z } from 'zod';
import { type Claim, incentiveCents } from './claims';
import { divRoundHalfUp, parseCents } from './money';

/**
 * The homeowner savings calculator (issue 15, docs/decisions/0710-savings-calculator.md): pure,
 * integer cents (bigint) and basis points only, so every figure is exact and the page, the tests
 * and a reader with a pencil agree to the cent. Each constant names where it comes from.
 */

/** 1% = 100 basis points. */
const BP = 10_000n;

export const SAVINGS_ASSUMPTIONS = {
  /** SPEC section 9 marketing claim "25-50% savings": the low and high end, on heating and cooling. */
  savingsLowBp: 2_500n,
  savingsHighBp: 5_000n,
  /** SPEC section 9 "up to 30% cost reduction": no estimate exceeds 30% of the whole bill. */
  maxBillReductionBp: 3_000n,
  // SPEC section 9's "30% federal tax credit" is no longer a constant: it ended for property placed in
  // service after 31 December 2025 (Public Law 119-21). Incentives are owner-edited, dated content
  // (claims.ts, decision 0930), passed to calculateSavings while in effect.
  /** SPEC section 9 "7% A/C efficiency loss in first year" (without the product), on heating and cooling. */
  acLossFirstYearBp: 700n,
  /** SPEC section 9 "rates up 10% per year": each projected year's bill is 110% of the year before. */
  rateRisePerYearBp: 1_000n,
  /** Our assumption (decision 0710), not a SPEC figure: installed price per sq ft when there is no quote. */
  defaultPriceCentsPerSqFt: 150n,
  /** Years in the projection. */
  years: 5,
} as const;

/**
 * Share of the bill that is heating and cooling, by climate: the About page's "50-60%
 * cooling/heating" (SPEC section 2), low end for cold climates, high end for hot ones.
 */
export const SAVINGS_REGIONS = {
  hot: { label: 'Hot (South, Southwest)', hvacShareBp: 6_000n },
  mixed: { label: 'Mixed (Mid-Atlantic, Midwest, West Coast)', hvacShareBp: 5_500n },
  cold: { label: 'Cold (North, Northeast, Mountain)', hvacShareBp: 5_000n },
} as const;
export type SavingsRegion = keyof typeof SAVINGS_REGIONS;
export const SAVINGS_REGION_KEYS = Object.keys(SAVINGS_REGIONS) as [SavingsRegion, ...SavingsRegion[]];

export const SAVINGS_LIMITS = { minSqFt: 100, maxSqFt: 20_000, maxBills: 12, maxBillDollars: 100_000 } as const;

export const SAVINGS_MESSAGES = {
  attic: `Attic size must be a whole number from ${SAVINGS_LIMITS.minSqFt} to ${SAVINGS_LIMITS.maxSqFt.toLocaleString('en-US')} sq ft`,
  bill: `Enter a monthly bill in dollars, more than $0 and at most $${SAVINGS_LIMITS.maxBillDollars.toLocaleString('en-US')}`,
  bills: 'Enter at least one monthly bill',
  quote: 'Enter the quoted price in dollars, or leave it empty',
  region: 'Choose your climate region',
} as const;

const dollars = (message: string) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const c = parseCents(s.replace(/[$,]/g, ''));
      if (c === null || c <= 0n || c > BigInt(SAVINGS_LIMITS.maxBillDollars) * 100n) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return c;
    });

/** What the form (and the page's URL) holds: text as typed; parsed by `savingsInput`. */
export const savingsInput = z.object({
  atticSqFt: z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, SAVINGS_MESSAGES.attic)
    .transform(Number)
    .refine((n) => n >= SAVINGS_LIMITS.minSqFt && n <= SAVINGS_LIMITS.maxSqFt, SAVINGS_MESSAGES.attic),
  bills: z.array(dollars(SAVINGS_MESSAGES.bill)).min(1, SAVINGS_MESSAGES.bills).max(SAVINGS_LIMITS.maxBills),
  region: z.enum(SAVINGS_REGION_KEYS, { message: SAVINGS_MESSAGES.region }),
  /** The dealer's installed price for this attic, if quoted; empty: estimated from the attic size. */
  quote: z.union([z.literal('').transform(() => null), dollars(SAVINGS_MESSAGES.quote)]),
});
export type SavingsInputText = z.input<typeof savingsInput>;
export type SavingsInput = z.output<typeof savingsInput>;

export interface SavingsRange {
  low: bigint;
  high: bigint;
}
export interface SavingsYear {
  year: number;
  billCents: bigint;
  savings: SavingsRange;
}
export type IncentiveTerms = Pick<Claim, 'id' | 'text' | 'percent' | 'amount' | 'cap'>;
export interface SavingsIncentive {
  id: string;
  text: string;
  cents: bigint;
}

export interface SavingsResult {
  monthlyBillCents: bigint;
  annualBillCents: bigint;
  hvacShareBp: bigint;
  annualHvacCents: bigint;
  firstYear: SavingsRange;
  capCents: bigint;
  acLossCents: bigint;
  years: SavingsYear[];
  total: SavingsRange;
  installedCents: bigint;
  priceFromQuote: boolean;
  /** The incentives in effect for this homeowner and what each takes off the installed price. */
  incentives: SavingsIncentive[];
  /** Their sum, never more than the installed price. */
  incentivesCents: bigint;
  netCostCents: bigint;
  /** First year in which the cumulative savings reach the net cost; null: not within the projection. */
  paybackYear: { low: number | null; high: number | null };
}

/** One year's savings on a yearly bill: share x rate of the bill, never above 30% of it. */
export function yearSavings(billCents: bigint, hvacShareBp: bigint, rateBp: bigint): bigint {
  const cap = divRoundHalfUp(billCents * SAVINGS_ASSUMPTIONS.maxBillReductionBp, BP);
  const savings = divRoundHalfUp(billCents * hvacShareBp * rateBp, BP * BP);
  // biome-ignore lint/complexity/useMathMinMax: bigints; Math.min would throw
  return savings < cap ? savings : cap;
}

export function calculateSavings(input: SavingsInput, incentiveTerms: readonly IncentiveTerms[] = []): SavingsResult {
  const a = SAVINGS_ASSUMPTIONS;
  const total = input.bills.reduce((s, b) => s + b, 0n);
  const monthlyBillCents = divRoundHalfUp(total, BigInt(input.bills.length));
  const annualBillCents = monthlyBillCents * 12n;
  const hvacShareBp = SAVINGS_REGIONS[input.region].hvacShareBp;
  const years: SavingsYear[] = [];
  let bill = annualBillCents;
  for (let year = 1; year <= a.years; year++) {
    years.push({
      year,
      billCents: bill,
      savings: {
        low: yearSavings(bill, hvacShareBp, a.savingsLowBp),
        high: yearSavings(bill, hvacShareBp, a.savingsHighBp),
      },
    });
    bill = divRoundHalfUp(bill * (BP + a.rateRisePerYearBp), BP);
  }
  const sum = (k: keyof SavingsRange) => years.reduce((s, y) => s + y.savings[k], 0n);
  const installedCents = input.quote ?? BigInt(input.atticSqFt) * a.defaultPriceCentsPerSqFt;
  const incentives: SavingsIncentive[] = [];
  let incentivesCents = 0n;
  for (const t of incentiveTerms) {
    const c = incentiveCents(installedCents - incentivesCents, t);
    if (c <= 0n) continue;
    incentives.push({ id: t.id, text: t.text, cents: c });
    incentivesCents += c;
  }
  const netCostCents = installedCents - incentivesCents;
  const payback = (k: keyof SavingsRange) => {
    let cumulative = 0n;
    for (const y of years) {
      cumulative += y.savings[k];
      if (cumulative >= netCostCents) return y.year;
    }
    return null;
  };
  const annualHvacCents = divRoundHalfUp(annualBillCents * hvacShareBp, BP);
  const first = years[0]!;
  return {
    monthlyBillCents,
    annualBillCents,
    hvacShareBp,
    annualHvacCents,
    firstYear: first.savings,
    capCents: divRoundHalfUp(annualBillCents * a.maxBillReductionBp, BP),
    acLossCents: divRoundHalfUp(annualHvacCents * a.acLossFirstYearBp, BP),
    years,
    total: { low: sum('low'), high: sum('high') },
    installedCents,
    priceFromQuote: input.quote !== null,
    incentives,
    incentivesCents,
    netCostCents,
    paybackYear: { low: payback('low'), high: payback('high') },
  };
}

/** "25%" from basis points (whole percents only, which every constant above is). */
export const percentOfBp = (bp: bigint) => `${Number(bp / 100n)}%`;
