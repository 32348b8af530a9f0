/**
 * The personal-data field rule (issue 35, finding 11): what a viewer may not read, in JSON as in the
 * CSV exports (which a viewer cannot download at all, decision 0610). IP addresses, user agents,
 * emails and phone numbers: fields of those names are blanked, and an email address inside any
 * text (an audit message, an actor that is an email) is masked.
 */

export const HIDDEN = 'hidden';

/** Keys whose values are personal data wherever they appear (rows, audit details, timelines). */
const PERSONAL_KEY =
  /^(?:e-?mail|.*Email|to|toAddress|account|phone|phoneE164|.*Phone|ip|ipAddress|userAgent|userAgentParsed|ua)$/;
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** `value` with the rule applied: a new value, the input untouched. JSON-like values (toJSON) are read first. */
export function withoutPersonalData(value: unknown, depth = 0): unknown {
  if (depth > 32) return null;
  if (typeof value === 'string') return value.includes('@') ? value.replace(EMAIL_IN_TEXT, HIDDEN) : value;
  if (value === null || typeof value !== 'object') return value;
  const plain =
    typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value;
  if (plain !== value) return withoutPersonalData(plain, depth + 1);
  if (Array.isArray(value)) return value.map((v) => withoutPersonalData(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = PERSONAL_KEY.test(k)
      ? v === null || v === undefined
        ? v
        : typeof v === 'string'
          ? HIDDEN
          : null
      : withoutPersonalData(v, depth + 1);
  }
  return out;
}
