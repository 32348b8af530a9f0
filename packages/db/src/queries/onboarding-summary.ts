import { type RawBuilder, sql } from 'kysely';
import type { Tier } from '../types';
import type { Executor } from './executor';

/**
 * The onboarding flags of many dealers at once, for the admin's dealer list (its column and its
 * "onboarding incomplete" / "overdue" filter). Each flag is the SQL form of a step's `done` in
 * services/onboarding/status.ts (the checklist's definition); test/onboarding-list.int.test.ts
 * holds the two to the same answers. Each is an index probe per dealer (primary or unique keys).
 */

/** A verified document of `kind` covering `today` (issue 45: only a checked document counts). */
const verified = (kind: 'insurance' | 'licence', today: string) =>
  sql<boolean>`exists (select 1 from compliance_documents c where c.dealer_id = d.id and c.kind = ${kind}
      and c.status = 'verified' and c.expires_on >= ${today}::date)`;

const flags = (today: string) => ({
  agreement: sql<boolean>`exists (select 1 from agreement_signatures s
      where s.dealer_id = d.id and s.tier = d.tier
        and s.version = (select max(v.version) from agreement_versions v where v.tier = d.tier))`,
  call: sql<boolean>`exists (select 1 from onboarding_calls c where c.dealer_id = d.id and c.status = 'held')`,
  inventory: sql<boolean>`(d.tier = 'Affiliate' or coalesce((select sum(p.amount) from inventory_payments p where p.dealer_id = d.id), 0)
      >= coalesce((select o.inventory_upfront from onboarding_settings o where o.tier = d.tier), 0))`,
  insurance: sql<boolean>`(d.tier = 'Affiliate' or ${verified('insurance', today)})`,
  license: sql<boolean>`(d.tier = 'Affiliate' or ${verified('licence', today)})`,
  // A verified document of the kind has expired and none verified covers today.
  expired: sql<boolean>`(d.tier <> 'Affiliate' and exists (select 1 from compliance_documents c
      where c.dealer_id = d.id and c.status = 'verified' and c.expires_on < ${today}::date
        and not exists (select 1 from compliance_documents n where n.dealer_id = d.id and n.kind = c.kind
          and n.status = 'verified' and n.expires_on >= ${today}::date)))`,
});

export interface OnboardingFlags {
  id: string;
  fullName: string;
  companyName: string | null;
  tier: Tier;
  status: string;
  approvalDate: Date | null;
  agreement: boolean;
  call: boolean;
  inventory: boolean;
  insurance: boolean;
  license: boolean;
  expired: boolean;
}

const select = (f: ReturnType<typeof flags>): RawBuilder<unknown> =>
  sql`d.id, d.full_name as "fullName", d.company_name as "companyName", d.tier, d.status,
    d.approval_date as "approvalDate", ${f.agreement} as agreement, ${f.call} as call, ${f.inventory} as inventory,
    ${f.insurance} as insurance, ${f.license} as license, ${f.expired} as expired`;

/** The flags of the dealers `ids` (a page of the list), approved ones only. */
export async function onboardingFlagsOf(db: Executor, ids: readonly string[], today: string) {
  if (ids.length === 0) return [];
  const f = flags(today);
  const r = await sql<OnboardingFlags>`select ${select(f)} from dealers d
    where d.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))}) and d.approval_date is not null`.execute(db);
  return r.rows;
}

/**
 * Approved dealers whose onboarding is incomplete, or overdue (the call not held though approved
 * before `overdueBefore`, or an insurance or licence expired), newest approval first: a walk of
 * dealers_approval_date_idx that stops after a page.
 */
export async function dealersWithOnboarding(
  db: Executor,
  filter: 'incomplete' | 'overdue',
  today: string,
  overdueBefore: Date,
  limit: number,
  offset: number,
) {
  const f = flags(today);
  const where =
    filter === 'overdue'
      ? sql`((not ${f.call} and d.approval_date < ${overdueBefore}) or ${f.expired})`
      : sql`not (${f.agreement} and ${f.call} and ${f.inventory} and ${f.insurance} and ${f.license})`;
  const r = await sql<OnboardingFlags>`select ${select(f)} from dealers d
    where d.approval_date is not null and d.status in ('approved', 'active') and ${where}
    order by d.approval_date desc, d.id
    limit ${limit} offset ${offset}`.execute(db);
  return r.rows;
}
