import { sql } from 'kysely';
import type { Executor } from './executor';

/** One row of the dealers CSV: the fields an admin works with, never the password hash. */
export interface DealerExportRow {
  id: string;
  createdAt: string;
  fullName: string;
  companyName: string | null;
  email: string;
  phoneE164: string;
  tier: string;
  status: string;
  accessGranted: boolean;
  approvalDate: string | null;
  approvedBy: string | null;
  rejectionReason: string | null;
  recruiterId: string | null;
  referralType: string | null;
  referredByName: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  entityType: string | null;
  licensedInstallers: boolean;
  crewCount: number | null;
  salesReps: number | null;
  monthlyVolume: number | null;
  crmName: string | null;
  productVerticals: string;
  totalOrders: number;
  totalRevenue: string;
  lastOrderDate: string | null;
}

export interface ExportCursor {
  createdAt: string;
  id: string;
}

/**
 * One batch of the export, newest first, after the cursor: keyset pagination over the
 * (created_at desc, id) index, so every batch costs the same however deep the export is and
 * no connection is held between batches. Timestamps come back as ISO text, exact to the
 * microsecond, so the cursor never skips or repeats a row.
 */
export async function dealerExportBatch(db: Executor, after: ExportCursor | null, limit: number) {
  const cond = after
    ? sql`where d.created_at <= ${after.createdAt}::timestamptz
        and (d.created_at < ${after.createdAt}::timestamptz or d.id > ${after.id}::uuid)`
    : sql``;
  const r = await sql<DealerExportRow & { cursorAt: string }>`
    select d.id, to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
      d.created_at::text as cursor_at,
      d.full_name, d.company_name, d.email, d.phone_e164, d.tier, d.status, d.access_granted,
      to_char(d.approval_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as approval_date,
      d.approved_by, d.rejection_reason, d.recruiter_id, d.referral_type, r.full_name as referred_by_name,
      d.address_json->>'street' as street, d.address_json->>'city' as city, d.address_json->>'state' as state,
      d.address_json->>'zipCode' as zip_code, d.address_json->>'country' as country,
      d.entity_type, d.licensed_installers, d.crew_count, d.sales_reps, d.monthly_volume, d.crm_name,
      array_to_string(d.product_verticals, '; ') as product_verticals,
      d.total_orders, d.total_revenue::text as total_revenue,
      to_char(d.last_order_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_order_date
    from dealers d
    left join dealers r on r.id = d.referred_by
    ${cond}
    order by d.created_at desc, d.id
    limit ${limit}`.execute(db);
  return r.rows;
}
