import { sql } from '@dn/db';
import { CREATE_CSV_CELL } from '@dn/db/migrations/2026-11-21-0301-admin-export-and-counts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BATCH } from '../src/services/dealers/export';
import { createHarness, type Harness, signInAdmin } from './helpers';

/**
 * The export builds its CSV in JavaScript since 0304; before, PostgreSQL built every line with
 * csv_cell (migration 0301). Same data, same bytes: the old query, verbatim, and 0301's own function
 * are the reference here, run over cells meant to break a CSV writer in every column.
 */

const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const safe = (e: string) => `coalesce(${e}, '')`;
const cell = (e: string) => `csv_cell(${e})`;
// The line expression of the export before 0304.
const OLD_LINE = [
  safe('d.id::text'),
  safe(iso('d.created_at')),
  ...['d.full_name', 'd.company_name', 'd.email', 'd.phone_e164'].map(cell),
  ...['d.tier', 'd.status', 'd.access_granted::text', iso('d.approval_date')].map(safe),
  ...['d.approved_by', 'd.rejection_reason', 'd.recruiter_id'].map(cell),
  safe('d.referral_type'),
  cell('r.full_name'),
  ...['street', 'city', 'state', 'zipCode', 'country'].map((k) => cell(`d.address_json->>'${k}'`)),
  ...[
    'd.entity_type',
    'd.licensed_installers::text',
    'd.crew_count::text',
    'd.sales_reps::text',
    'd.monthly_volume::text',
    'd.crm_name',
  ].map(safe),
  cell("array_to_string(d.product_verticals, '; ')"),
  safe('d.total_orders::text'),
  cell('d.total_revenue::text'),
  safe(iso('d.last_order_date')),
].join(" || ',' || ");

const HEADER =
  'ID,Created At,Full Name,Company Name,Email,Phone,Tier,Status,Access Granted,Approval Date,Approved By,' +
  'Rejection Reason,Recruiter ID,Referral Type,Referred By,Street,City,State,ZIP Code,Country,Entity Type,' +
  'Licensed Installers,Crew Count,Sales Reps,Monthly Volume,CRM,Product Focus,Total Orders,Total Revenue,' +
  'Last Order Date';

/** Text that CSV quoting, formula neutralisation or UTF-8 could get wrong. */
const NASTY = [
  'plain',
  '=1+1',
  '+15551234567',
  '-2',
  '@SUM(A1)',
  '\tTab first',
  '\rCR first',
  'comma, inside',
  'say "hi"',
  '"',
  ',',
  'two\nlines',
  'cr\rinside',
  'crlf\r\nend',
  '=HYPERLINK("https://evil.example","click")',
  '-,"\n',
  '',
  ' spaces ',
  "it's",
  'Zoë Ünicode',
  '日本語の名前',
  'emoji 😀 and 𝄞',
  'a\u0001b',
  '=',
];
const pick = (i: number, k: number) => NASTY[(i * 7 + k) % NASTY.length]!;
const maybe = (i: number, k: number) => (i % 5 === k % 5 ? null : pick(i, k));

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h.app, 'identical');
  await CREATE_CSV_CELL.execute(h.db);
  const n = EXPORT_BATCH * 2 + 37; // several batches, the last one partial
  const rows = Array.from({ length: n }, (_, i) => ({
    // The index first: the canonical mailbox (issue 35) drops a +tag, and the nasty text may hold one.
    email: `${i}.${pick(i, 3)}@identical.test`,
    fullName: pick(i, 1),
    companyName: maybe(i, 2),
    phoneE164: pick(i, 4),
    tier: (['Affiliate', 'Authorized', 'Preferred'] as const)[i % 3]!,
    status: (['pending', 'approved', 'rejected', 'active', 'inactive', 'suspended'] as const)[i % 6]!,
    accessGranted: i % 2 === 0,
    approvedBy: maybe(i, 5),
    rejectionReason: maybe(i, 6),
    recruiterId: maybe(i, 7),
    referralType: ([null, 'automatic', 'manual'] as const)[i % 3] ?? null,
    addressJson:
      i % 11 === 0
        ? null
        : JSON.stringify(
            i % 13 === 0
              ? { street: { n: 1, s: 'a, "b"' }, zipCode: 78701 }
              : {
                  street: pick(i, 8),
                  city: pick(i, 9),
                  state: pick(i, 10),
                  zipCode: pick(i, 11),
                  country: pick(i, 12),
                },
          ),
    entityType: ([null, 'LLC', 'Corporation', 'Sole Proprietorship'] as const)[i % 4] ?? null,
    licensedInstallers: i % 3 === 0,
    crewCount: i % 4 === 0 ? null : i % 50,
    salesReps: i % 5 === 0 ? null : i % 7,
    monthlyVolume: i % 6 === 0 ? null : i * 13,
    crmName: ([null, 'HubSpot', 'Other'] as const)[i % 3] ?? null,
    productVerticals: i % 4 === 0 ? [] : [pick(i, 13), pick(i, 14)],
    totalOrders: i % 9 === 0 ? -i : i,
    totalRevenue: i % 8 === 0 ? `-${i}.5` : `${i * 1234}.05`,
    // Microseconds (truncated, not rounded, in the file) and ties on created_at.
    createdAt: sql<Date>`'2024-02-29 23:59:59.999999+00'::timestamptz - ${Math.floor(i / 3)} * interval '1 second'`,
    approvalDate: i % 3 === 0 ? null : sql<Date>`'1999-12-31 23:59:59.5+05'::timestamptz + ${i} * interval '1 day'`,
    lastOrderDate: i % 2 === 0 ? null : sql<Date>`'0999-01-02 03:04:05.678901+00'::timestamptz`,
    updatedAt: new Date(),
  }));
  await h.db.insertInto('dealers').values(rows).execute();
  // Most dealers were referred, by dealers whose names are nasty too.
  await sql`
    with n as (select id, row_number() over (order by id) as k, count(*) over () as c from dealers)
    update dealers d set referred_by = r.id
    from n x join n r on r.k = 1 + (x.k * 31) % x.c
    where d.id = x.id and x.k % 4 <> 0`.execute(h.db);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('the CSV built in JavaScript', () => {
  it('is byte for byte what csv_cell built in the database', async () => {
    const res = await h.app.inject({ url: '/api/admin/dealers/export', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const old = await sql<{ line: string }>`
      select ${sql.raw(OLD_LINE)} as line
      from dealers d left join dealers r on r.id = d.referred_by
      order by d.created_at desc, d.id`.execute(h.db);
    expect(old.rows.length).toBeGreaterThan(EXPORT_BATCH * 2);
    const expected = `\uFEFF${HEADER}\r\n${old.rows.map((r) => `${r.line}\r\n`).join('')}`;
    expect(res.rawPayload.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    // Spot checks, so a failure of the reference itself would show.
    expect(res.body).toContain(`,"'=HYPERLINK(""https://evil.example"",""click"")",`);
    expect(res.body).toContain(",'+15551234567,");
    expect(res.body).toContain('emoji 😀 and 𝄞');
    expect(res.body).toContain('2024-02-29T23:59:59Z');
  });
});
