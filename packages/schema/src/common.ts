import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, RECRUITER_ID_MESSAGE, RECRUITER_ID_RE } from './constants';
import {
  EMAIL_INVALID,
  EMAIL_RE,
  EMAIL_REQUIRED_DEFAULT,
  MAX_LONG_TEXT,
  PHONE_INVALID,
  PHONE_REQUIRED,
  toE164,
  tooLong,
} from './quote-rules';

export { MAX_LONG_TEXT, toE164 };

/** Field primitives: rules, normalisation and the spec's messages, written once. */

export const MAX_TEXT = 200;
export const MAX_URL = 2_048;

// EMAIL_RE: a plain address, `local@domain` (zod's own pattern, as `z.email()` uses): dot-separated atoms of
// letters, digits and `_'+-`, a domain of labels and a TLD. No comment `(…)`, display name `<…>`, group
// `g:…;`, quotes, list or whitespace: mail libraries deliver those forms to a mailbox the string does not
// show, which let one mailbox take many budgets (issue 35, finding 1). In quote-rules.ts (no zod there).

/**
 * The mailbox an address delivers to, as budgets, duplicate applications and the self-referral
 * check count it (issue 35, finding 1; decision 0880): lower-cased, a `+tag` removed, and for
 * gmail.com and googlemail.com the dots of the local part removed and the domain gmail.com. The
 * address as typed is what is stored and shown. The same rule is `dn_mailbox()` in the database
 * (migration 0880), which keeps applications unique per mailbox.
 */
export function canonicalMailbox(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/** Trimmed text; an empty one fails with `required`. */
export const requiredText = (required: string, max = MAX_TEXT) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong(max));

/** Control characters (C0, DEL, C1), line and paragraph separators: never in a name or signature (issue 45). */
export const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;
export const CONTROL_CHARACTERS_MESSAGE =
  'Use letters, digits and punctuation only: no line breaks or control characters';
/** A name or signature on one line: no control characters. */
export const singleLine = <T extends z.ZodType<string | undefined>>(s: T) =>
  s.refine((v) => v === undefined || !CONTROL_CHARACTERS.test(v), CONTROL_CHARACTERS_MESSAGE);

/** Trimmed optional text; an empty string becomes undefined. */
export const optionalText = (max = MAX_TEXT) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const email = (required = EMAIL_REQUIRED_DEFAULT, invalid = EMAIL_INVALID) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(254, invalid)
    .transform((v) => v.toLowerCase())
    .refine((v) => EMAIL_RE.test(v), invalid);

export const phone = (required = PHONE_REQUIRED, invalid = PHONE_INVALID) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(32, invalid)
    .refine((v) => v.length >= 10, invalid)
    .transform((v, ctx) => {
      const e164 = toE164(v);
      if (!e164) {
        ctx.addIssue({ code: 'custom', message: invalid });
        return z.NEVER;
      }
      return e164;
    });

/** A 1-based page number read from a query string; the first page when left out. */
export const pageNumber = () =>
  z.coerce
    .number({ error: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page must be 1 or more')
    .max(100_000, 'Page must be at most 100000')
    .default(1);

export const uuid = (message = 'Must be a valid id') => z.uuid({ error: message });

export const httpUrl = (message = 'Must be a web address starting with http:// or https://') =>
  z
    .string()
    .trim()
    .max(MAX_URL, message)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'https:' || u.protocol === 'http:';
      } catch {
        return false;
      }
    }, message);

export const optionalHttpUrl = () =>
  z
    .union([z.literal(''), httpUrl()])
    .optional()
    .transform((v) => (v ? v : undefined));

/** Whole numbers from a form: '' and null mean "not given"; strings of digits are parsed. */
export const optionalCount = (max = 1_000_000) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: 'Must be a whole number' })
      .int('Must be a whole number')
      .min(0, 'Must be 0 or more')
      .max(max, `Must be at most ${max}`)
      .optional(),
  );

export const recruiterId = () => z.string().trim().regex(RECRUITER_ID_RE, RECRUITER_ID_MESSAGE);

export const newPassword = () =>
  z
    .string({ error: `Password must be at least ${PASSWORD_MIN} characters long` })
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long`)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`);

/** Field errors keyed by dotted path, the first message of each: `{ "addressJson.city": "City is required" }`. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    out[key] ??= issue.message;
  }
  return out;
}
