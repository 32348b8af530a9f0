import { type RawBuilder, sql } from 'kysely';
import type { Executor } from './executor';

const iso = (col: RawBuilder<unknown>) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * A value that can hold neither a CSV delimiter nor a formula start (a uuid, an ISO time, a
 * constrained enum, a boolean, a non-negative integer): written as is, sparing csv_cell.
 */
const safe = (expr: RawBuilder<unknown>) => sql`coalesce(${expr}, '')`;

/** The columns of the dealers CSV: what an admin works with, never the password hash. */
export const DEALER_EXPORT_COLUMNS: [header: string, expr: RawBuilder<unknown>, safe?: 'safe'][] = [
  ['ID', sql`d.id::text`, 'safe'],
  ['Created At', iso(sql`d.created_at`), 'safe'],
  ['Full Name', sql`d.full_name`],
  ['Company Name', sql`d.company_name`],
  ['Email', sql`d.email`],
  ['Phone', sql`d.phone_e164`],
  ['Tier', sql`d.tier`, 'safe'],
  ['Status', sql`d.status`, 'safe'],
  ['Access Granted', sql`d.access_granted::text`, 'safe'],
  ['Approval Date', iso(sql`d.approval_date`), 'safe'],
  ['Approved By', sql`d.approved_by`],
  ['Rejection Reason', sql`d.rejection_reason`],
  ['Recruiter ID', sql`d.recruiter_id`],
  ['Referral Type', sql`d.referral_type`, 'safe'],
  ['Referred By', sql`r.full_name`],
  ['Street', sql`d.address_json->>'street'`],
  ['City', sql`d.address_json->>'city'`],
  ['State', sql`d.address_json->>'state'`],
  ['ZIP Code', sql`d.address_json->>'zipCode'`],
  ['Country', sql`d.address_json->>'country'`],
  ['Entity Type', sql`d.entity_type`, 'safe'],
  ['Licensed Installers', sql`d.licensed_installers::text`, 'safe'],
  ['Crew Count', sql`d.crew_count::text`, 'safe'],
  ['Sales Reps', sql`d.sales_reps::text`, 'safe'],
  ['Monthly Volume', sql`d.monthly_volume::text`, 'safe'],
  ['CRM', sql`d.crm_name`, 'safe'],
  ['Product Focus', sql`array_to_string(d.product_verticals, '; ')`],
  ['Total Orders', sql`d.total_orders::text`, 'safe'],
  ['Total Revenue', sql`d.total_revenue::text`],
  ['Last Order Date', iso(sql`d.last_order_date`), 'safe'],
];

const LINE = sql.join(
  DEALER_EXPORT_COLUMNS.map(([, expr, kind]) => (kind === 'safe' ? safe(expr) : sql`csv_cell(${expr})`)),
  sql`|| ',' ||`,
);

export interface ExportCursor {
  createdAt: string;
  id: string;
}

/**
 * One batch of CSV lines, newest first, after the cursor. The lines are built by the database
 * (csv_cell: quoting and formula neutralisation, migration 0301), so a row costs JavaScript one
 * string. Keyset pagination over the (created_at desc, id) index: every batch costs the same
 * however deep the export is, and no connection is held between batches. The cursor's
 * timestamp travels as text, exact to the microsecond, so ties are neither skipped nor repeated.
 */
export async function dealerExportBatch(db: Executor, after: ExportCursor | null, limit: number) {
  const cond = after
    ? sql`where d.created_at <= ${after.createdAt}::timestamptz
        and (d.created_at < ${after.createdAt}::timestamptz or d.id > ${after.id}::uuid)`
    : sql``;
  const r = await sql<{ line: string; cursorAt: string; id: string }>`
    select ${LINE} as line, d.created_at::text as cursor_at, d.id
    from dealers d
    left join dealers r on r.id = d.referred_by
    ${cond}
    order by d.created_at desc, d.id
    limit ${limit}`.execute(db);
  return r.rows;
}
