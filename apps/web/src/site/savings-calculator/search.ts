/**
 * /resources' search params: the calculator's inputs as typed, so a copied link opens the same
 * estimate (decision 0710). Plain code, no zod: route search validation is in the app shell's bundle;
 * the calculator parses the values with the shared schema in its own chunk.
 */
export interface SavingsSearch {
  /** Numbers as typed; a plain number may arrive as a number (see toParam). */
  attic?: string | number;
  /** Monthly bills in dollars, comma-separated. */
  bills?: string | number;
  region?: string;
  quote?: string | number;
  /** The homeowner's ZIP code: state and utility incentives for it (decision 0930). */
  zip?: string | number;
}

/** A number stays a number: the router validates the search it builds too, and would quote it. */
const value = (v: unknown): string | number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  return typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : undefined;
};

export function validateSavingsSearch(search: Record<string, unknown>): SavingsSearch {
  const out: SavingsSearch = {};
  const region = value(search.region);
  if (region !== undefined) out.region = String(region);
  for (const k of ['attic', 'bills', 'quote', 'zip'] as const) {
    const v = value(search[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * A plain number goes into the URL as a number: the router quotes a string that reads as JSON
 * ("1500" would become %221500%22), and a shared link should read ?attic=1500.
 */
export const toParam = (s: string | number): string | number | undefined => {
  const t = String(s).trim();
  if (!t) return undefined;
  return /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/.test(t) && String(Number(t)) === t ? Number(t) : t;
};
