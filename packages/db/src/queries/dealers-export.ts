import { type AliasedRawBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import { DEALER_SORT_EXPR, type DealerListFilter, filteredDealers } from './dealers';
import type { Executor } from './executor';

const iso = (col: RawBuilder<unknown>) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * How a cell is written. 'text' may hold anything: it is quoted per RFC 4180 and neutralised
 * when it starts like a formula. 'safe' can hold neither a delimiter nor a formula start (a
 * uuid, an ISO time, a constrained enum, a boolean, an integer): written as is.
 */
export type ExportCellKind = 'text' | 'safe';

/** The columns of the dealers CSV: what an admin works with, never the password hash. */
export const DEALER_EXPORT_COLUMNS: readonly (readonly [
  key: string,
  header: string,
  expr: RawBuilder<unknown>,
  kind: ExportCellKind,
])[] = [
  ['id', 'ID', sql`d.id::text`, 'safe'],
  ['createdAt', 'Created At', iso(sql`d.created_at`), 'safe'],
  ['fullName', 'Full Name', sql`d.full_name`, 'text'],
  ['companyName', 'Company Name', sql`d.company_name`, 'text'],
  ['email', 'Email', sql`d.email`, 'text'],
  ['phone', 'Phone', sql`d.phone_e164`, 'text'],
  ['tier', 'Tier', sql`d.tier`, 'safe'],
  ['status', 'Status', sql`d.status`, 'safe'],
  ['accessGranted', 'Access Granted', sql`d.access_granted::text`, 'safe'],
  ['approvalDate', 'Approval Date', iso(sql`d.approval_date`), 'safe'],
  ['approvedBy', 'Approved By', sql`d.approved_by`, 'text'],
  ['rejectionReason', 'Rejection Reason', sql`d.rejection_reason`, 'text'],
  ['recruiterId', 'Recruiter ID', sql`d.recruiter_id`, 'text'],
  ['referralType', 'Referral Type', sql`d.referral_type`, 'safe'],
  // A subquery, not a join: a join carries every selected column of d through its own tuples,
  // which took PostgreSQL about 1.0 s of CPU per 100,000 rows against 0.7 s this way.
  ['referredBy', 'Referred By', sql`(select r.full_name from dealers r where r.id = d.referred_by)`, 'text'],
  ['street', 'Street', sql`d.address_json->>'street'`, 'text'],
  ['city', 'City', sql`d.address_json->>'city'`, 'text'],
  ['state', 'State', sql`d.address_json->>'state'`, 'text'],
  ['zipCode', 'ZIP Code', sql`d.address_json->>'zipCode'`, 'text'],
  ['country', 'Country', sql`d.address_json->>'country'`, 'text'],
  ['entityType', 'Entity Type', sql`d.entity_type`, 'safe'],
  ['licensedInstallers', 'Licensed Installers', sql`d.licensed_installers::text`, 'safe'],
  ['crewCount', 'Crew Count', sql`d.crew_count::text`, 'safe'],
  ['salesReps', 'Sales Reps', sql`d.sales_reps::text`, 'safe'],
  ['monthlyVolume', 'Monthly Volume', sql`d.monthly_volume::text`, 'safe'],
  ['crm', 'CRM', sql`d.crm_name`, 'safe'],
  ['productFocus', 'Product Focus', sql`array_to_string(d.product_verticals, '; ')`, 'text'],
  ['totalOrders', 'Total Orders', sql`d.total_orders::text`, 'safe'],
  ['totalRevenue', 'Total Revenue', sql`d.total_revenue::text`, 'text'],
  ['lastOrderDate', 'Last Order Date', iso(sql`d.last_order_date`), 'safe'],
];

/** A column as the export reads it: [key, header, expression, kind]. */
export type DealerExportColumnSql = (typeof DEALER_EXPORT_COLUMNS)[number];

/**
 * What the database sends per dealer: each 'text' cell as a field of its own (the service
 * quotes and neutralises it), and each run of consecutive 'safe' cells already joined with
 * commas into one field (nothing to escape; a NULL is an empty cell). Every field costs the
 * driver a string and the service a step, while joining in SQL is nearly free: fewer, longer
 * fields are the cheap way through.
 */
function fields(columns: readonly DealerExportColumnSql[]) {
  const out: { expr: RawBuilder<unknown>; escaped: boolean }[] = [];
  let run: RawBuilder<unknown>[] = [];
  const endRun = () => {
    if (run.length > 0) out.push({ expr: sql.join(run, sql`|| ',' ||`), escaped: false });
    run = [];
  };
  for (const [, , expr, kind] of columns) {
    if (kind === 'safe') run.push(sql`coalesce(${expr}, '')`);
    else {
      endRun();
      out.push({ expr, escaped: true });
    }
  }
  endRun();
  // Named, not numbered ("0", "1", ...): pg builds each row by cloning an object of the
  // result's keys, which is several times slower with numeric keys once the server has run
  // queries of other shapes.
  return out.map((f, i) => ({ ...f, key: `f${i}` }));
}

/** One dealer's fields (see DealerExportPlan.fields); null is an empty text cell. */
export type ExportRow = Readonly<Record<string, string | null>>;

/**
 * The position after a batch's last row: its id and created_at (as text, exact to the
 * microsecond) and, under a sort other than createdAt, its sort key as text.
 */
export interface ExportCursor {
  createdAt: string;
  id: string;
  sortKey?: string;
}

/** The list's filter and sort (queries/dealers.ts), without the page. */
export type DealerExportFilter = Pick<DealerListFilter, 'q' | 'tier' | 'status' | 'sort' | 'dir'>;

/** What one export reads: its columns' fields in order (`escaped` for a text cell) and its filter. */
export interface DealerExportPlan {
  fields: readonly { key: string; escaped: boolean }[];
  headers: readonly string[];
  filter: DealerExportFilter;
  select: readonly AliasedRawBuilder<unknown, string>[];
}

/**
 * The plan of an export: `keys` are column keys in file order (unknown keys are the caller's
 * to refuse; @dn/schema validates them), every column when absent.
 */
export function dealerExportPlan(filter: DealerExportFilter, keys?: readonly string[]): DealerExportPlan {
  const columns = keys
    ? keys.map((k) => {
        const c = DEALER_EXPORT_COLUMNS.find(([key]) => key === k);
        if (!c) throw new Error(`unknown export column ${k}`);
        return c;
      })
    : DEALER_EXPORT_COLUMNS;
  const f = fields(columns);
  // Every field is selected as text under its key, with no type parsing or key renaming on the
  // way. The cursor comes last: the id (a uuid's text is 36 characters) then the timestamp as
  // text, exact to the microsecond; and the sort key when the order is not by creation.
  const cursor: AliasedRawBuilder<unknown, string>[] = [sql`d.id::text || d.created_at::text`.as('cursor')];
  if (filter.sort !== 'createdAt') cursor.push(sql`${DEALER_SORT_EXPR[filter.sort]}::text`.as('sort_key'));
  return {
    fields: f.map(({ key, escaped }) => ({ key, escaped })),
    headers: columns.map(([, header]) => header),
    filter,
    select: [...f.map(({ key, expr }) => expr.as(key)), ...cursor],
  };
}

/**
 * The order and the rows after a cursor. Newest first (the default and the file as it always
 * was): created_at desc, then id. Oldest first: created_at, id. By another column: that column
 * in the asked direction, then created_at desc, then id in the asked direction, as the admin's
 * list orders it (queries/dealers.ts).
 */
function orderAndAfter(f: DealerExportFilter, after: ExportCursor | null) {
  if (f.sort === 'createdAt') {
    const desc = f.dir === 'desc';
    const order = desc ? sql`d.created_at desc, d.id` : sql`d.created_at, d.id`;
    if (!after) return { order, cond: null };
    const t = sql`${after.createdAt}::timestamptz`;
    const cond = desc
      ? sql<SqlBool>`d.created_at <= ${t} and (d.created_at < ${t} or d.id > ${after.id}::uuid)`
      : sql<SqlBool>`d.created_at >= ${t} and (d.created_at > ${t} or d.id > ${after.id}::uuid)`;
    return { order, cond };
  }
  const key = DEALER_SORT_EXPR[f.sort];
  const asc = f.dir === 'asc';
  const order = asc ? sql`${key}, d.created_at desc, d.id` : sql`${key} desc, d.created_at desc, d.id desc`;
  if (!after) return { order, cond: null };
  const s = sql`${after.sortKey ?? ''}::text`;
  const t = sql`${after.createdAt}::timestamptz`;
  const id = sql`${after.id}::uuid`;
  const cond = asc
    ? sql<SqlBool>`(${key} > ${s} or (${key} = ${s} and (d.created_at < ${t} or (d.created_at = ${t} and d.id > ${id}))))`
    : sql<SqlBool>`(${key} < ${s} or (${key} = ${s} and (d.created_at < ${t} or (d.created_at = ${t} and d.id < ${id}))))`;
  return { order, cond };
}

/**
 * One batch of the plan's dealers after the cursor, as text cells the service writes as CSV;
 * `next` is the cursor after the batch's last row. Keyset pagination (over the
 * (created_at desc, id) index in the default order): no connection is held between batches,
 * and the cursor's timestamp travels as text, exact to the microsecond, so ties are neither
 * skipped nor repeated. The filter is the admin list's (`filteredDealers`, plus its status).
 * Run without the database's plugins: the field keys need no camel-casing, and the rows are
 * passed on as `pg` built them.
 */
export async function dealerExportBatch(
  db: Executor,
  plan: DealerExportPlan,
  after: ExportCursor | null,
  limit: number,
): Promise<{ rows: ExportRow[]; next: ExportCursor | null }> {
  const { order, cond } = orderAndAfter(plan.filter, after);
  let q = filteredDealers(db.withoutPlugins(), plan.filter);
  if (plan.filter.status) q = q.where('d.status', '=', plan.filter.status);
  if (cond) q = q.where(cond);
  const rows = (await q
    .select([...plan.select])
    .orderBy(order)
    .limit(limit)
    .execute()) as (ExportRow & { cursor: string; sort_key?: string | null })[];
  const last = rows[rows.length - 1];
  return {
    rows,
    next: last
      ? { id: last.cursor.slice(0, 36), createdAt: last.cursor.slice(36), sortKey: last.sort_key ?? undefined }
      : null,
  };
}
