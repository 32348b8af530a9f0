import { regexes } from 'zod/v4/core';

/**
 * The homeowner's quote request (issue 37), its rules and messages without zod (decision 1160): the
 * light /quote page checks a request with `quoteRequestErrors` before sending it, in a few hundred
 * bytes instead of zod's 25 KB. `quoteRequestInput` (jobs.ts) is built from the same messages and
 * limits, and quote-rules.test.ts proves both give the same first message per field on the same input.
 */

/** A plain address, zod's own pattern (see common.ts). */
export const EMAIL_RE: RegExp = regexes.email;

/**
 * A phone number normalised to E.164. Ten digits are taken as a North American number;
 * anything else must carry its country code.
 */
export function toE164(raw: string): string | null {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
}

export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'PR',
] as const;

export const MAX_LONG_TEXT = 2_000;
export const tooLong = (max: number) => `Must be at most ${max} characters`;
export const EMAIL_REQUIRED_DEFAULT = 'Email required';
export const EMAIL_INVALID = 'Valid email is required';
export const PHONE_REQUIRED = 'Phone required';
export const PHONE_INVALID = 'Valid phone number is required';
export const ZIP_REQUIRED = 'ZIP code is required';
export const ZIP_FORMAT = 'ZIP code must be 5 digits';
export const ZIP_RE = /^\d{5}(-\d{4})?$/;
export const STATE_REQUIRED = 'State is required';
export const STATE_CODE = 'State must be a two-letter US state code, like TX';
export const CONSENT_REQUIRED = 'Please agree to be contacted about your installation';
export const notesTooLong = `Notes must be at most ${MAX_LONG_TEXT} characters`;

/** A whole number field's messages (`wholeNumber` in jobs.ts). */
export const wholeNumberWords = (label: string, min: number, max: number) => ({
  type: `${label} must be a whole number`,
  min: `${label} must be at least ${min}`,
  max: `${label} must be at most ${max}`,
});

/** The job site's fields, shared by the quote and the dealer's Register a job. */
export const SITE_RULES = {
  street: { required: 'Street is required', max: 200 },
  city: { required: 'City is required', max: 100 },
  atticSqFt: { label: 'Attic size', min: 50, max: 100_000 },
  fans: { label: 'Number of fans', min: 0, max: 50 },
} as const;

export const QUOTE_RULES = {
  fullName: { required: 'Name is required', max: 120 },
  email: { required: 'Email is required' },
} as const;

type Input = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function text(v: unknown, required: string, max: number): string | undefined {
  const s = str(v);
  if (s === undefined) return required;
  const t = s.trim();
  if (t.length < 1) return required;
  return t.length > max ? tooLong(max) : undefined;
}

function whole(v: unknown, r: { label: string; min: number; max: number }): string | undefined {
  if (v === undefined) return undefined;
  const w = wholeNumberWords(r.label, r.min, r.max);
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return w.type;
  if (v < r.min) return w.min;
  return v > r.max ? w.max : undefined;
}

/**
 * The first message per field that `quoteRequestInput` gives for the same input (the honeypot and
 * the recruiter id, which people do not type, are left to the server).
 */
export function quoteRequestErrors(input: Input): Record<string, string> {
  const out: Record<string, string | undefined> = {};
  out.fullName = text(input.fullName, QUOTE_RULES.fullName.required, QUOTE_RULES.fullName.max);
  const email = str(input.email);
  out.email =
    email === undefined || email.trim().length < 1
      ? QUOTE_RULES.email.required
      : email.trim().length > 254 || !EMAIL_RE.test(email.trim().toLowerCase())
        ? EMAIL_INVALID
        : undefined;
  const phone = str(input.phone);
  out.phone =
    phone === undefined || phone.trim().length < 1
      ? PHONE_REQUIRED
      : phone.trim().length > 32 || phone.trim().length < 10 || !toE164(phone.trim())
        ? PHONE_INVALID
        : undefined;
  out.street = text(input.street, SITE_RULES.street.required, SITE_RULES.street.max);
  out.city = text(input.city, SITE_RULES.city.required, SITE_RULES.city.max);
  const state = str(input.state);
  out.state =
    state === undefined
      ? STATE_REQUIRED
      : state.trim().length > 2 || !(US_STATES as readonly string[]).includes(state.trim().toUpperCase())
        ? STATE_CODE
        : undefined;
  const zip = str(input.zipCode);
  out.zipCode =
    zip === undefined || zip.trim().length < 1 ? ZIP_REQUIRED : !ZIP_RE.test(zip.trim()) ? ZIP_FORMAT : undefined;
  out.atticSqFt = whole(input.atticSqFt, SITE_RULES.atticSqFt);
  out.fans = whole(input.fans, SITE_RULES.fans);
  const notes = input.notes;
  out.notes =
    notes === undefined
      ? undefined
      : typeof notes !== 'string'
        ? 'Invalid input'
        : notes.trim().length > MAX_LONG_TEXT
          ? notesTooLong
          : undefined;
  out.consent = input.consent === true ? undefined : CONSENT_REQUIRED;
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string] => e[1] !== undefined));
}
