import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { DB, DealerStatus, Tier } from '../types';
import type { Executor } from './executor';

/** Must match the expression of the trigram index (migration 2026-11-21-0300-admin-search). */
const SEARCH_EXPR = sql<string>`lower(d.full_name || ' ' || coalesce(d.company_name, '') || ' ' || d.email)`;

export interface DealerListFilter {
  q?: string | undefined;
  tier?: Tier | undefined;
  status?: DealerStatus | undefined;
  sort: 'createdAt' | 'fullName' | 'companyName' | 'email' | 'tier' | 'status';
  dir: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** `like` pattern of a user's search text: its wildcards are matched literally. */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type DealerQuery = SelectQueryBuilder<DB & { d: DB['dealers'] }, 'd', object>;

function filtered<Q extends DealerQuery>(q: Q, f: Pick<DealerListFilter, 'q' | 'tier'>): Q {
  let out = q;
  if (f.q) out = out.where(SEARCH_EXPR, 'like', likePattern(f.q)) as Q;
  if (f.tier) out = out.where('d.tier', '=', f.tier) as Q;
  return out;
}

const SORT_EXPR = {
  createdAt: sql`d.created_at`,
  fullName: sql`lower(d.full_name)`,
  companyName: sql`lower(coalesce(d.company_name, ''))`,
  email: sql`lower(d.email)`,
  tier: sql`d.tier`,
  status: sql`d.status`,
} as const;

/** One page of the admin table, newest first by default; never the password hash. */
export async function listDealersPage(db: Executor, f: DealerListFilter) {
  let q = filtered(db.selectFrom('dealers as d') as DealerQuery, f)
    .leftJoin('dealers as r', 'r.id', 'd.referredBy')
    .leftJoin('affiliateLinks as l', 'l.dealerId', 'd.id')
    .select([
      'd.id',
      'd.fullName',
      'd.companyName',
      'd.email',
      'd.phoneE164',
      'd.tier',
      'd.status',
      'd.accessGranted',
      'd.rejectionReason',
      'd.recruiterId',
      'd.referredBy',
      'd.referralType',
      'r.fullName as referredByName',
      'l.recruiterId as ownRecruiterId',
      'd.approvalDate',
      'd.approvedBy',
      'd.createdAt',
      'd.updatedAt',
    ]);
  if (f.status) q = q.where('d.status', '=', f.status);
  const dir = f.dir === 'asc' ? sql`asc` : sql`desc`;
  const sortExpr = SORT_EXPR[f.sort];
  q = q.orderBy(sql`${sortExpr} ${dir}`);
  if (f.sort !== 'createdAt') q = q.orderBy(sql`d.created_at desc`);
  return q
    .orderBy(sql`d.id ${dir}`)
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize)
    .execute();
}

/**
 * Counts per status under the search and tier filters (the status filter is what the counts
 * are for, so it is left out): the total and every tab's badge in one query. Without a search
 * they come from the trigger-kept counters (migration 0303), otherwise from one grouped count.
 */
export async function countDealersByStatus(db: Executor, f: Pick<DealerListFilter, 'q' | 'tier'>) {
  if (!f.q) {
    const r = await sql<{ status: DealerStatus; n: string }>`
      select status, sum(n) as n from dealer_counts
      ${f.tier ? sql`where tier = ${f.tier}` : sql``}
      group by status`.execute(db);
    return r.rows.map((row) => ({ status: row.status, count: Number(row.n) }));
  }
  const rows = await filtered(db.selectFrom('dealers as d') as DealerQuery, f)
    .select(['d.status', (eb: ExpressionBuilder<DB & { d: DB['dealers'] }, 'd'>) => eb.fn.countAll<string>().as('n')])
    .groupBy('d.status')
    .execute();
  return rows.map((r) => ({ status: r.status as DealerStatus, count: Number(r.n) }));
}

/** The summary cards in one round trip, from the trigger-kept counters. */
export async function dealerMetrics(db: Executor) {
  const r = await sql<{
    total: string;
    preferred: string;
    authorized: string;
    affiliate: string;
    pending: string;
    approved: string;
    callsScheduled: string;
  }>`
    select coalesce(sum(n), 0) as total,
      coalesce(sum(n) filter (where tier = 'Preferred'), 0) as preferred,
      coalesce(sum(n) filter (where tier = 'Authorized'), 0) as authorized,
      coalesce(sum(n) filter (where tier = 'Affiliate'), 0) as affiliate,
      coalesce(sum(n) filter (where status = 'pending'), 0) as pending,
      coalesce(sum(n) filter (where status in ('approved', 'active')), 0) as approved,
      (select count(*) from call_schedules where status = 'scheduled') as calls_scheduled
    from dealer_counts`.execute(db);
  const row = r.rows[0]!;
  return {
    totalDealers: Number(row.total),
    byTier: {
      Preferred: Number(row.preferred),
      Authorized: Number(row.authorized),
      Affiliate: Number(row.affiliate),
    },
    pendingApplications: Number(row.pending),
    approvedDealers: Number(row.approved),
    scheduledCalls: Number(row.callsScheduled),
  };
}

/** A dealer as the admin actions need it (locked when inside a transaction that changes it). */
export function findDealerForAdmin(db: Executor, id: string, lock = false) {
  let q = db
    .selectFrom('dealers')
    .select([
      'id',
      'email',
      'fullName',
      'companyName',
      'tier',
      'status',
      'accessGranted',
      'referredBy',
      'referralType',
      'recruiterId',
      'approvalDate',
      'rejectionReason',
    ])
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The searchable picker of the Link Referral dialog: small pages, same search as the table. */
export function searchDealerOptions(db: Executor, q: string | undefined, limit: number) {
  let query = db.selectFrom('dealers as d') as DealerQuery;
  if (q) query = query.where(SEARCH_EXPR, 'like', likePattern(q));
  return query
    .select(['d.id', 'd.fullName', 'd.companyName', 'd.email'])
    .orderBy(sql`lower(d.full_name)`)
    .orderBy('d.id')
    .limit(limit)
    .execute();
}
