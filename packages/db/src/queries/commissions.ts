import { type RawBuilder, sql } from 'kysely';
import { runView, viewOnce } from '../prepared';
import type { CommissionStatus } from '../types';
import type { Executor } from './executor';

/** The commission ledger (issue 13): commissions and clawbacks, one of each at most per order. */

const LEDGER_COLUMNS = [
  'c.id',
  'c.kind',
  'c.recruiterId',
  'c.recruiterDealerId',
  'c.referredDealerId',
  'c.commissionType',
  'c.amount',
  'c.status',
  'c.orderId',
  'c.orderRef',
  'c.ruleId',
  'c.orderAmount',
  'c.orderedAt',
  'c.holdUntil',
  'c.voidReason',
  'c.approvedBy',
  'c.approvedAt',
  'c.payoutId',
  'c.paidAt',
  'c.createdAt',
] as const;

export interface NewLedgerEntry {
  kind: 'commission' | 'clawback';
  recruiterId: string;
  recruiterDealerId: string;
  referredDealerId: string;
  commissionType: string;
  amount: string;
  status: CommissionStatus;
  orderId: string;
  orderRef: string;
  ruleId: string | null;
  orderAmount: string;
  orderedAt: Date;
  holdUntil: Date | null;
  /** A held entry of a job's order (issue 45): what releases it besides its referral's flag. */
  releaseNeeds?: 'installation' | 'owner' | null;
}

/** Inserts a ledger entry unless the order already has one of that kind; undefined then. */
export function insertLedgerEntryOnce(db: Executor, e: NewLedgerEntry) {
  return db
    .insertInto('commissions')
    .values({ ...e, updatedAt: new Date() })
    .onConflict((oc) => oc.columns(['orderRef', 'kind']).where('orderRef', 'is not', null).doNothing())
    .returning(['id', 'amount', 'status'])
    .executeTakeFirst();
}

export function findOrderCommission(db: Executor, orderRef: string) {
  return db
    .selectFrom('commissions as c')
    .select(LEDGER_COLUMNS)
    .where('c.orderRef', '=', orderRef)
    .where('c.kind', '=', 'commission')
    .forUpdate()
    .executeTakeFirst();
}

export function lockCommission(db: Executor, id: string) {
  return db.selectFrom('commissions as c').select(LEDGER_COLUMNS).where('c.id', '=', id).forUpdate().executeTakeFirst();
}

export async function voidLedgerEntry(db: Executor, id: string, reason: string): Promise<void> {
  await db
    .updateTable('commissions')
    .set({ status: 'voided', voidReason: reason, updatedAt: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Approves the pending commissions among `ids` whose holding period is over; returns those approved. */
export function approvePending(db: Executor, ids: readonly string[], admin: string, now: Date) {
  return db
    .updateTable('commissions')
    .set({ status: 'approved', approvedBy: admin, approvedAt: now, updatedAt: now })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('kind', '=', 'commission')
    .where((eb) => eb.or([eb('holdUntil', 'is', null), eb('holdUntil', '<=', now)]))
    .returning(['id', 'recruiterDealerId', 'referredDealerId', 'amount'])
    .execute();
}

/** Who recorded the order of each commission among `ids` (the two-person rule of approving). */
export function orderRecorders(db: Executor, ids: readonly string[]) {
  return db
    .selectFrom('commissions as c')
    .innerJoin('orders as o', 'o.id', 'c.orderRef')
    .select(['c.id', 'c.orderId', 'o.recordedBy'])
    .where('c.id', 'in', ids)
    .execute();
}

/** What stopped the others: their current status and hold. */
export function ledgerStates(db: Executor, ids: readonly string[]) {
  return db.selectFrom('commissions').select(['id', 'status', 'kind', 'holdUntil']).where('id', 'in', ids).execute();
}

export interface LedgerFilter {
  status?: CommissionStatus | undefined;
  recruiterDealerId?: string | undefined;
  /** ordered on or after (inclusive), before `to` (exclusive) */
  from?: Date | undefined;
  to?: Date | undefined;
}

/** `literal`: the status is written into the SQL (runView), not sent as a parameter. */
function filtered(db: Executor, f: LedgerFilter, literal = false) {
  let q = db.selectFrom('commissions as c').where('c.recruiterDealerId', 'is not', null);
  if (f.status) q = q.where('c.status', '=', literal ? sql.lit(f.status) : f.status);
  if (f.recruiterDealerId) q = q.where('c.recruiterDealerId', '=', f.recruiterDealerId);
  if (f.from) q = q.where('c.createdAt', '>=', f.from);
  if (f.to) q = q.where('c.createdAt', '<', f.to);
  return q;
}

/**
 * Whether the filter and page are the Commissions tab's polled first page (a status or none, no
 * recruiter, no dates, the page size the tab polls with, `polledPageSize`): its values are an enum
 * and one page size, so it is a view. Any other page size, or none given, runs with parameters.
 */
const isView = (f: LedgerFilter, page: { limit: number; offset: number }, polledPageSize: number | undefined) =>
  page.offset === 0 && page.limit === polledPageSize && !f.recruiterDealerId && !f.from && !f.to;

/**
 * One page of the ledger for the admin, newest first, with names. The tab's first page by status
 * at the tab's page size is written with its values and planned once per connection (runView),
 * compiled once per status (viewOnce): at 1,000,000 dealers its planning took 0.7 ms against 0.6 ms of
 * execution (bench/results.md, the cost curve).
 */
export function listLedger(
  db: Executor,
  f: LedgerFilter,
  page: { limit: number; offset: number },
  polledPageSize?: number,
) {
  const view = isView(f, page, polledPageSize);
  const build = () => {
    const q = filtered(db, f, view)
      .leftJoin('dealers as r', 'r.id', 'c.recruiterDealerId')
      .leftJoin('dealers as d', 'd.id', 'c.referredDealerId')
      .leftJoin('referralFlags as f', 'f.referredDealerId', 'c.referredDealerId')
      // The rule's rate, so an earning shows what it came from (issue 36): by its primary key.
      .leftJoin('commissionRules as cr', 'cr.id', 'c.ruleId')
      .select(LEDGER_COLUMNS)
      .select([
        // Why a commission is held (issue 35, finding 6): its referral's flag.
        sql<string | null>`case when c.status = 'held' then f.reason end`.as('heldReason'),
        'r.fullName as recruiterName',
        'r.email as recruiterEmail',
        'd.fullName as referredName',
        'd.email as referredEmail',
        sql<string | null>`cr.value::text`.as('ruleValue'),
      ])
      .orderBy('c.createdAt', 'desc')
      .orderBy('c.id', 'desc');
    return view ? q.limit(sql.lit(page.limit)) : q.limit(page.limit).offset(page.offset);
  };
  return view ? runView(db, viewOnce(db, `ledger.page:${f.status ?? ''}:${page.limit}`, build)) : build().execute();
}

/** A sum of `amount` over the rows `where` picks, as exact text with two decimals; negated: shown as a positive amount. */
const sumWhere = (where: RawBuilder<unknown>, negated = false) =>
  sql<string>`coalesce(${negated ? sql`-` : sql``}sum(amount) filter (where ${where}), 0)::numeric(14, 2)::text`;

/** The figures every totals query answers, over the ledger or over kept totals (rows of status, kind, payable, amount). */
type Figures = 'pending' | 'approved' | 'paid' | 'clawbacks' | 'payable';

/**
 * The figures' sums: by status (commissions only), clawbacks apart as positive amounts, and what
 * the next payout settles (`payable`: the rows' own way of saying `ledger_payable`, migration
 * 0860), then any more sums asked for by name.
 */
function figures(payable: RawBuilder<unknown>, extra: Record<string, RawBuilder<unknown>>) {
  const sums: Record<string, RawBuilder<string>> = {
    pending: sumWhere(sql`kind = 'commission' and status = 'pending'`),
    approved: sumWhere(sql`kind = 'commission' and status = 'approved'`),
    paid: sumWhere(sql`kind = 'commission' and status = 'paid'`),
    clawbacks: sumWhere(sql`kind = 'clawback' and status <> 'voided'`, true),
    payable: sumWhere(payable),
  };
  for (const [name, where] of Object.entries(extra)) sums[name] = sumWhere(where);
  return Object.entries(sums).map(([name, sum]) => sum.as(name));
}

/** The admin's extra figures: voided commissions and the whole non-voided ledger. */
const ADMIN_EXTRA = {
  voided: sql`kind = 'commission' and status = 'voided'`,
  ledger: sql`status <> 'voided'`,
};

type Totals<Extra extends string> = { total: string } & Record<Figures | Extra, string>;

/** An aggregate's one row, its count as a number. */
const counted = <T extends { total: string }>(rows: T[]) => {
  const row = rows[0]!;
  return { ...row, total: Number(row.total) };
};

/**
 * Count and sums per status over the filter, and what is payable. With no filter or a status
 * alone, from the trigger-kept commission_totals (migration 0741): a few rows instead of the whole
 * ledger. By recruiter or dates, from the ledger's indexed rows.
 */
export async function ledgerTotals(db: Executor, f: LedgerFilter) {
  if (!f.recruiterDealerId && !f.from && !f.to) return keptTotals(db, f.status);
  const row = await filtered(db, f)
    .select([sql<string>`count(*)::text`.as('total'), ...figures(sql`ledger_payable(status, payout_id)`, ADMIN_EXTRA)])
    .executeTakeFirstOrThrow();
  return counted([row as Totals<keyof typeof ADMIN_EXTRA>]);
}

/** The count and the figures that kept totals (rows of status, kind, payable, n, amount, summed over their shards) give. */
function keptTotalsQuery<Extra extends string>(from: RawBuilder<unknown>, extra: Record<Extra, RawBuilder<unknown>>) {
  return sql<
    Totals<Extra>
  >`select coalesce(sum(n), 0)::text as total, ${sql.join(figures(sql`payable`, extra))} ${from}`;
}

/**
 * The same figures as ledgerTotals from the kept totals (migration 0741). Polled with the tab's
 * first page, its status (an enum, or none) written in: a view, planned once per connection.
 */
async function keptTotals(db: Executor, status: CommissionStatus | undefined) {
  const build = () =>
    keptTotalsQuery(
      sql`from commission_totals ${status ? sql`where status = ${sql.lit(status)}` : sql``}`,
      ADMIN_EXTRA,
    );
  return counted(await runView(db, viewOnce(db, `ledger.totals:${status ?? ''}`, build)));
}

/**
 * A recruiter's own summary: their ledger's count and sums by status, what is payable, and what
 * counts from `monthStart` on (a UTC month's first second: the kept totals are by UTC month), from
 * the trigger-kept recruiter_commission_totals (migration 0910), so the cost does not grow with
 * their ledger. Equal to ledgerTotals({ recruiterDealerId }) and ledgerTotals({ recruiterDealerId,
 * from: monthStart }).ledger.
 */
export async function recruiterTotals(db: Executor, recruiterDealerId: string, monthStart: Date) {
  const query = keptTotalsQuery(
    sql`from recruiter_commission_totals where recruiter_dealer_id = ${recruiterDealerId}`,
    { thisMonth: sql`status <> 'voided' and month >= ${monthStart.toISOString().slice(0, 10)}::date` },
  );
  return counted((await query.execute(db)).rows);
}

/** A recruiter's own ledger page, with the referred dealer's name and email (masked by the service). */
export function listRecruiterLedger(db: Executor, recruiterDealerId: string, page: { limit: number; offset: number }) {
  return listLedger(db, { recruiterDealerId }, page);
}

/** The dealer who referred an order's dealer: who earns the commission. */
export function findRecruiter(db: Executor, dealerId: string) {
  return db
    .selectFrom('dealers')
    .select(['id', 'recruiterId', 'fullName', 'email', 'status'])
    .where('id', '=', dealerId)
    .executeTakeFirst();
}
