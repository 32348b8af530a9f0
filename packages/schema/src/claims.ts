import { z } from 'zod';
import { US_STATES as US_STATE_CODES } from './jobs';
import { divRoundHalfUp, formatCents, parseCents } from './money';

/** The states an incentive can be scoped to: the same list as a job's or an address's state. */
export { US_STATE_CODES };

/**
 * Homeowner claims and incentives (issue 37, decision 0930): what the site and the savings calculator
 * state about the product's benefits and the money a homeowner gets back, edited by owners, each with
 * its source and the dates it is in effect. An incentive with a percent or an amount lowers the
 * calculator's net cost while it is in effect (and, with a ZIP or state scope, only for that ZIP).
 */

export const CLAIM_KINDS = ['claim', 'incentive'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export const CLAIM_MESSAGES = {
  text: 'Text is required (at most 300 characters)',
  kind: 'Kind must be claim or incentive',
  percent: 'Percent must be a number above 0 and at most 100, with at most two decimals',
  amount: 'Amount must be dollars above $0, like 500 or 500.00',
  cap: 'Cap must be dollars above $0, like 1200 or 1200.00',
  percentOrAmount: 'Give a percent or an amount, not both',
  capNeedsPercent: 'A cap applies only to a percent',
  source: 'Source is required: a https:// link or a citation (at most 500 characters)',
  sourceUrl: 'A source link must start with https://',
  date: 'Dates must be like 2026-01-31',
  dates: 'Effective until must be on or after effective from',
  state: 'State must be a two-letter US state code, like TX',
  zip: 'ZIP codes must be 3 to 5 digits each (a prefix covers every ZIP starting with it), at most 50',
  zipQuery: 'ZIP code must be 5 digits',
  notFound: 'Claim not found',
} as const;

/** Empty text, null and undefined all mean "not given". */
const blank = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : v);

const optionalMoney = (message: string) =>
  z.preprocess(
    blank,
    z
      .string({ error: message })
      .trim()
      .max(20, message)
      .transform((v, ctx) => {
        const c = parseCents(v.replace(/[$,]/g, ''));
        if (c === null || c <= 0n) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return formatCents(c);
      })
      .optional(),
  );

const optionalPercent = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : blank(v)),
  z
    .string({ error: CLAIM_MESSAGES.percent })
    .trim()
    .max(10, CLAIM_MESSAGES.percent)
    .transform((v, ctx) => {
      const c = parseCents(v.replace(/%$/, ''));
      if (c === null || c <= 0n || c > 10_000n) {
        ctx.addIssue({ code: 'custom', message: CLAIM_MESSAGES.percent });
        return z.NEVER;
      }
      return formatCents(c);
    })
    .optional(),
);

const optionalDate = z.preprocess(
  blank,
  z
    .string({ error: CLAIM_MESSAGES.date })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, CLAIM_MESSAGES.date)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, CLAIM_MESSAGES.date)
    .optional(),
);

const claimFields = z.object({
  text: z.string({ error: CLAIM_MESSAGES.text }).trim().min(1, CLAIM_MESSAGES.text).max(300, CLAIM_MESSAGES.text),
  kind: z.enum(CLAIM_KINDS, { error: CLAIM_MESSAGES.kind }),
  percent: optionalPercent,
  amount: optionalMoney(CLAIM_MESSAGES.amount),
  cap: optionalMoney(CLAIM_MESSAGES.cap),
  source: z
    .string({ error: CLAIM_MESSAGES.source })
    .trim()
    .min(1, CLAIM_MESSAGES.source)
    .max(500, CLAIM_MESSAGES.source)
    .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^https:\/\/[^\s]+/i.test(v), CLAIM_MESSAGES.sourceUrl),
  effectiveFrom: optionalDate,
  effectiveUntil: optionalDate,
  state: z.preprocess(
    (v) => (typeof v === 'string' ? blank(v.trim().toUpperCase()) : blank(v)),
    z.enum(US_STATE_CODES, { error: CLAIM_MESSAGES.state }).optional(),
  ),
  zipPrefixes: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(/[\s,]+/)
            .map((s) => s.trim())
            .filter(Boolean)
        : (v ?? []),
    z
      .array(z.string({ error: CLAIM_MESSAGES.zip }).max(5, CLAIM_MESSAGES.zip), { error: CLAIM_MESSAGES.zip })
      .max(50, CLAIM_MESSAGES.zip)
      .refine((a) => a.every((z) => /^\d{3,5}$/.test(z)), CLAIM_MESSAGES.zip)
      .transform((a) => [...new Set(a)]),
  ),
});

const claimRules = <T extends z.ZodType<z.output<typeof claimFields>>>(schema: T): T =>
  schema
    .refine((c) => !(c.percent && c.amount), { message: CLAIM_MESSAGES.percentOrAmount, path: ['amount'] })
    .refine((c) => !c.cap || c.percent, { message: CLAIM_MESSAGES.capNeedsPercent, path: ['cap'] })
    .refine((c) => !c.effectiveFrom || !c.effectiveUntil || c.effectiveFrom <= c.effectiveUntil, {
      message: CLAIM_MESSAGES.dates,
      path: ['effectiveUntil'],
    });

/** POST /api/admin/claims */
export const claimInput = claimRules(claimFields);
export type ClaimInput = z.output<typeof claimInput>;

/** PUT /api/admin/claims/{id} */
export const updateClaimInput = claimRules(claimFields.extend({ id: z.uuid({ error: CLAIM_MESSAGES.notFound }) }));

/** DELETE /api/admin/claims/{id} */
export const claimIdInput = z.object({ id: z.uuid({ error: CLAIM_MESSAGES.notFound }) });

/** GET /api/claims?zip= */
export const claimsQuery = z.object({
  zip: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^\d{5}$/, CLAIM_MESSAGES.zipQuery)
      .optional(),
  ),
});

/** A claim or incentive as the api answers it (money and percent as strings with two decimals). */
export interface Claim {
  id: string;
  text: string;
  kind: ClaimKind;
  percent: string | null;
  amount: string | null;
  cap: string | null;
  source: string;
  effectiveFrom: string | null;
  effectiveUntil: string | null;
  state: string | null;
  zipPrefixes: string[];
}

/** The https link in a claim's source, if it has one (the rest is the citation). */
export function sourceLink(source: string): string | null {
  return /https:\/\/[^\s)<>"']+/i.exec(source)?.[0] ?? null;
}

/** "30% …", "$500 …": the figure an incentive gives, for the pages that list them. */
export function incentiveFigure(c: Pick<Claim, 'percent' | 'amount' | 'cap'>): string | null {
  const trim = (v: string) => v.replace(/\.00$/, '');
  if (c.percent) return `${trim(c.percent)}%${c.cap ? ` (up to $${trim(c.cap)})` : ''}`;
  if (c.amount) return `$${trim(c.amount)}`;
  return null;
}

/**
 * What an incentive takes off an installed price, in cents: its percent of the price (at most its cap)
 * or its amount; never more than the price. A claim without either takes nothing.
 */
export function incentiveCents(installedCents: bigint, c: Pick<Claim, 'percent' | 'amount' | 'cap'>): bigint {
  let cents = 0n;
  if (c.percent) {
    cents = divRoundHalfUp(installedCents * (parseCents(c.percent) ?? 0n), 10_000n);
    const cap = c.cap ? parseCents(c.cap) : null;
    if (cap !== null && cents > cap) cents = cap;
  } else if (c.amount) {
    cents = parseCents(c.amount) ?? 0n;
  }
  return cents > installedCents ? installedCents : cents;
}

/** What the owners' screen says (Admin › Claims & incentives). */
export const CLAIM_ADMIN_MESSAGES = {
  intro:
    'What the site and the savings calculator tell homeowners. Each shows only while in effect (US Eastern dates); an incentive with a percent or amount lowers the calculator’s net cost, for everyone or for the ZIP codes or state it names.',
  ownersOnly: 'Only owners change claims and incentives.',
  create: { success: 'Claim added', failure: 'Failed to add the claim' },
  update: { success: 'Claim updated', failure: 'Failed to update the claim' },
  remove: { success: 'Claim removed', failure: 'Failed to remove the claim' },
  confirmRemove: (text: string) => `Remove “${text}”? The site and the calculator stop showing it at once.`,
  status: { inEffect: 'In effect', ended: 'Ended', upcoming: 'Not yet in effect' },
} as const;

/** Where a claim stands on `today` (YYYY-MM-DD). */
export function claimStatus(
  c: Pick<Claim, 'effectiveFrom' | 'effectiveUntil'>,
  today: string,
): keyof typeof CLAIM_ADMIN_MESSAGES.status {
  if (c.effectiveUntil && c.effectiveUntil < today) return 'ended';
  if (c.effectiveFrom && c.effectiveFrom > today) return 'upcoming';
  return 'inEffect';
}
