import { z } from 'zod';

/**
 * Money on the wire is a string of dollars with two decimals ("1234.50"); in code it is integer
 * cents as a bigint, so no amount ever passes through a float (docs/decisions/0601-partner-program.md).
 */

const MONEY_RE = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/;

/** "1234.5" -> 123450n; null when the text is not dollars with at most two decimals. */
export function parseCents(text: string): bigint | null {
  const m = MONEY_RE.exec(text.trim());
  if (!m) return null;
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -cents : cents;
}

/** 123450n -> "1234.50"; -5n -> "-0.05". */
export function formatCents(cents: bigint): string {
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${neg ? '-' : ''}${whole}.${frac}`;
}

/** n / d rounded half away from zero (half-up on the magnitude), d > 0. */
export function divRoundHalfUp(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const q = (abs * 2n + d) / (2n * d);
  return neg ? -q : q;
}

/** `percent` ("10.00", hundredths of a percent exact) of `cents`, half-up to the cent. */
export function percentOfCents(cents: bigint, percent: string): bigint {
  const hundredths = parseCents(percent);
  if (hundredths === null) throw new RangeError(`not a percentage: ${percent}`);
  return divRoundHalfUp(cents * hundredths, 10_000n);
}

/** Sum of money strings, exactly. */
export function sumMoney(values: readonly string[]): string {
  let total = 0n;
  for (const v of values) {
    const c = parseCents(v);
    if (c === null) throw new RangeError(`not money: ${v}`);
    total += c;
  }
  return formatCents(total);
}

/** "$1,234.50" for people; the wire keeps "1234.50". */
export function displayMoney(value: string): string {
  const cents = parseCents(value);
  if (cents === null) return value;
  const [whole, frac] = formatCents(cents < 0n ? -cents : cents).split('.');
  return `${cents < 0n ? '-' : ''}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** The largest order amount: the average order value column is numeric(10,2). */
export const MAX_ORDER_CENTS = 99_999_999_99n;

/**
 * A positive amount of money as text ("1234.50", "1234.5" or "1234"), normalised to two decimals.
 * `max` in cents.
 */
export const money = (opts: { required: string; invalid: string; min?: bigint; max?: bigint; tooSmall?: string }) =>
  z
    .string({ error: opts.required })
    .trim()
    .min(1, opts.required)
    .max(20, opts.invalid)
    .transform((v, ctx) => {
      const cents = parseCents(v);
      if (cents === null || cents < 0n || (opts.max !== undefined && cents > opts.max)) {
        ctx.addIssue({ code: 'custom', message: opts.invalid });
        return z.NEVER;
      }
      if (opts.min !== undefined && cents < opts.min) {
        ctx.addIssue({ code: 'custom', message: opts.tooSmall ?? opts.invalid });
        return z.NEVER;
      }
      return formatCents(cents);
    });
