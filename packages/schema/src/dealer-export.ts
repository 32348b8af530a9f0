import { z } from 'zod';
import { dealerListQuery } from './dealer';

/**
 * The columns of the dealers CSV (issue 14, docs/decisions/0730-filtered-export.md): the key a
 * client names a column by, and its header in the file, in the file's default order. The SQL of
 * each is in @dn/db/queries/dealers-export (the same keys, checked by a test).
 */
export const DEALER_EXPORT_COLUMNS = [
  { key: 'id', label: 'ID' },
  { key: 'createdAt', label: 'Created At' },
  { key: 'fullName', label: 'Full Name' },
  { key: 'companyName', label: 'Company Name' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'tier', label: 'Tier' },
  { key: 'status', label: 'Status' },
  { key: 'accessGranted', label: 'Access Granted' },
  { key: 'approvalDate', label: 'Approval Date' },
  { key: 'approvedBy', label: 'Approved By' },
  { key: 'rejectionReason', label: 'Rejection Reason' },
  { key: 'recruiterId', label: 'Recruiter ID' },
  { key: 'referralType', label: 'Referral Type' },
  { key: 'referredBy', label: 'Referred By' },
  { key: 'street', label: 'Street' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'zipCode', label: 'ZIP Code' },
  { key: 'country', label: 'Country' },
  { key: 'entityType', label: 'Entity Type' },
  { key: 'licensedInstallers', label: 'Licensed Installers' },
  { key: 'crewCount', label: 'Crew Count' },
  { key: 'salesReps', label: 'Sales Reps' },
  { key: 'monthlyVolume', label: 'Monthly Volume' },
  { key: 'crm', label: 'CRM' },
  { key: 'productFocus', label: 'Product Focus' },
  { key: 'totalOrders', label: 'Total Orders' },
  { key: 'totalRevenue', label: 'Total Revenue' },
  { key: 'lastOrderDate', label: 'Last Order Date' },
] as const;

export type DealerExportColumn = (typeof DEALER_EXPORT_COLUMNS)[number]['key'];
export const DEALER_EXPORT_COLUMN_KEYS: readonly DealerExportColumn[] = DEALER_EXPORT_COLUMNS.map((c) => c.key);

const KNOWN = new Set<string>(DEALER_EXPORT_COLUMN_KEYS);
export const EXPORT_COLUMNS_REQUIRED = 'Choose at least one column to export';
export const unknownExportColumn = (key: string) =>
  `Unknown export column "${key.slice(0, 50)}"; choose from: ${DEALER_EXPORT_COLUMN_KEYS.join(', ')}`;
export const duplicateExportColumn = (key: string) => `Export column "${key}" is listed more than once`;

/** A list of column keys: at least one, each known, none twice; the file has them in this order. */
export const exportColumnList = z
  .array(z.string({ error: 'Each column must be a column name' }).max(50, 'Each column must be a column name'), {
    error: EXPORT_COLUMNS_REQUIRED,
  })
  .min(1, EXPORT_COLUMNS_REQUIRED)
  .max(DEALER_EXPORT_COLUMN_KEYS.length, `At most ${DEALER_EXPORT_COLUMN_KEYS.length} columns`)
  .superRefine((cols, ctx) => {
    const seen = new Set<string>();
    for (const c of cols) {
      if (!KNOWN.has(c)) ctx.addIssue({ code: 'custom', message: unknownExportColumn(c) });
      else if (seen.has(c)) ctx.addIssue({ code: 'custom', message: duplicateExportColumn(c) });
      seen.add(c);
    }
  })
  .transform((cols) => cols as DealerExportColumn[]);

/**
 * GET /api/admin/dealers/export: the list's filter and sort (the same words and limits as
 * `dealerListQuery`), and `columns`, comma-separated (`columns=fullName,email`; a repeated
 * parameter is read the same way). No parameter: every dealer, every column, newest first.
 */
export const dealerExportQuery = dealerListQuery
  .pick({ q: true, tier: true, status: true, sort: true, dir: true })
  .extend({
    columns: z
      .preprocess(
        (v) => (Array.isArray(v) ? v.join(',') : v),
        z
          .string({ error: 'Columns must be a comma-separated list of column names' })
          .max(2_000, 'Too many columns')
          .transform((s) => (s.trim() === '' ? [] : s.split(',').map((c) => c.trim()))),
      )
      .pipe(exportColumnList)
      .optional(),
  });
export type DealerExportQuery = z.output<typeof dealerExportQuery>;

/** The column picker's choice, remembered per admin. */
export const saveExportColumnsInput = z.object({ columns: exportColumnList });
export type SaveExportColumnsInput = z.input<typeof saveExportColumnsInput>;
