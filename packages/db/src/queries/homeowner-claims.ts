import { type Expression, type SqlBool, sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Homeowner claims and incentives (issue 37, decision 0930): owner-edited, each in effect from and
 * until a date (inclusive; either may be open). Numbers and dates are read as text ("30.00",
 * "2025-12-31") so no float or time zone touches them.
 */

export interface ClaimRow {
  id: string;
  text: string;
  kind: 'claim' | 'incentive';
  percent: string | null;
  amount: string | null;
  cap: string | null;
  source: string;
  effectiveFrom: string | null;
  effectiveUntil: string | null;
  state: string | null;
  zipPrefixes: string[];
}

export interface ClaimValues {
  text: string;
  kind: 'claim' | 'incentive';
  percent?: string | undefined;
  amount?: string | undefined;
  cap?: string | undefined;
  source: string;
  effectiveFrom?: string | undefined;
  effectiveUntil?: string | undefined;
  state?: string | undefined;
  zipPrefixes: string[];
}

const columns = [
  'id',
  'text',
  'kind',
  sql<string | null>`percent::text`.as('percent'),
  sql<string | null>`amount::text`.as('amount'),
  sql<string | null>`cap::text`.as('cap'),
  'source',
  sql<string | null>`to_char(effective_from, 'YYYY-MM-DD')`.as('effectiveFrom'),
  sql<string | null>`to_char(effective_until, 'YYYY-MM-DD')`.as('effectiveUntil'),
  'state',
  'zipPrefixes',
] as const;

const stored = (v: ClaimValues) => ({
  text: v.text,
  kind: v.kind,
  percent: v.percent ?? null,
  amount: v.amount ?? null,
  cap: v.cap ?? null,
  source: v.source,
  effectiveFrom: v.effectiveFrom ?? null,
  effectiveUntil: v.effectiveUntil ?? null,
  state: v.state ?? null,
  zipPrefixes: sql<string[]>`${sql.val(v.zipPrefixes)}::text[]`,
});

/** Every claim, in effect or not, for the owners' screen: incentives first, then by text. */
export function listClaims(db: Executor): Promise<ClaimRow[]> {
  return db
    .selectFrom('homeownerClaims')
    .select(columns)
    .orderBy('kind', 'desc')
    .orderBy('text')
    .orderBy('id')
    .execute() as Promise<ClaimRow[]>;
}

/**
 * The claims in effect on `today` (YYYY-MM-DD): those without a scope, and with `zip` given, those whose
 * ZIP prefixes cover it or whose state is `state` (the state of that ZIP).
 */
export function listClaimsInEffect(
  db: Executor,
  q: { today: string; zip?: string | undefined; state?: string | null | undefined },
): Promise<ClaimRow[]> {
  const today = sql<Date>`${q.today}::date`;
  return db
    .selectFrom('homeownerClaims')
    .select(columns)
    .where((eb) => eb.or([eb('effectiveFrom', 'is', null), eb('effectiveFrom', '<=', today)]))
    .where((eb) => eb.or([eb('effectiveUntil', 'is', null), eb('effectiveUntil', '>=', today)]))
    .where((eb) => {
      const unscoped = eb.and([eb('state', 'is', null), sql<SqlBool>`cardinality(zip_prefixes) = 0`]);
      if (!q.zip) return unscoped;
      const scoped: Expression<SqlBool>[] = [
        unscoped,
        sql<SqlBool>`exists (select 1 from unnest(zip_prefixes) p where ${q.zip} like p || '%')`,
      ];
      if (q.state) scoped.push(eb('state', '=', q.state));
      return eb.or(scoped);
    })
    .orderBy('kind', 'desc')
    .orderBy('text')
    .orderBy('id')
    .execute() as Promise<ClaimRow[]>;
}

export function insertClaim(db: Executor, v: ClaimValues): Promise<ClaimRow> {
  return db
    .insertInto('homeownerClaims')
    .values(stored(v))
    .returning(columns)
    .executeTakeFirstOrThrow() as Promise<ClaimRow>;
}

/** The claim as it was, locked for the transaction that changes it. */
export function lockClaim(db: Executor, id: string): Promise<ClaimRow | undefined> {
  return db
    .selectFrom('homeownerClaims')
    .select(columns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst() as Promise<ClaimRow | undefined>;
}

export function updateClaim(db: Executor, id: string, v: ClaimValues): Promise<ClaimRow> {
  return db
    .updateTable('homeownerClaims')
    .set({ ...stored(v), updatedAt: sql`now()` })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow() as Promise<ClaimRow>;
}

export function deleteClaim(db: Executor, id: string) {
  return db.deleteFrom('homeownerClaims').where('id', '=', id).executeTakeFirst();
}
