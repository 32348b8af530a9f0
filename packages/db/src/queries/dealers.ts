import { type QueryResult, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type AsJson, isoTimestamp, JsonText } from '../json-text';
import { prepareQuery, runView, viewOnce } from '../prepared';
import type { DB, DealerStatus, NewDealer, Tier } from '../types';
import type { AuditLogRow } from './audit-logs';
import { mailValues, type NewMail } from './email-outbox';
import type { Executor } from './executor';
import { type Budget, countHitsSql, type HitWindow } from './rate-limits';

/**
 * The stored, lower-cased name, company and email (migration 0980). Named as in SQL: the export
 * builds this filter without the camel-case plugin (dealers-export.ts).
 */
const SEARCH_TEXT = sql.ref<string>('d.search_text');

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

/**
 * The dealers table: applications, the admin's changes, the admin's list and search, the public
 * referral picker. A signed-in dealer's credentials are in accounts.ts; the CSV export in
 * dealers-export.ts; counts per status and tier in dealer-counts.ts.
 */

export type DealerQuery = SelectQueryBuilder<DB & { d: DB['dealers'] }, 'd', object>;

/**
 * `dealers as d` under the admin's search text and tier filter: a substring of the stored, lower-cased
 * name, company and email (migration 0980), which its trigram index answers.
 */
export function filteredDealers(db: Executor, f: Pick<DealerListFilter, 'q' | 'tier'>): DealerQuery {
  return filtered(db.selectFrom('dealers as d') as DealerQuery, f);
}

/** `literal`: the tier is written into the SQL (runView), not sent as a parameter. */
function filtered<Q extends DealerQuery>(q: Q, f: Pick<DealerListFilter, 'q' | 'tier'>, literal = false): Q {
  let out = q;
  if (f.q) out = out.where(SEARCH_TEXT, 'like', likePattern(f.q)) as Q;
  if (f.tier) out = out.where('d.tier', '=', literal ? sql.lit(f.tier) : f.tier) as Q;
  return out;
}

/** The admin list's sort keys as SQL over `dealers as d` (the export sorts by the same). */
export const DEALER_SORT_EXPR = {
  createdAt: sql`d.created_at`,
  fullName: sql`lower(d.full_name)`,
  companyName: sql`lower(coalesce(d.company_name, ''))`,
  email: sql`lower(d.email)`,
  tier: sql`d.tier`,
  status: sql`d.status`,
} as const;

/** Who applied and where the application stands (`dealers as d`): the admin row and the status page. */
export const APPLICANT_COLUMNS = [
  'd.id',
  'd.fullName',
  'd.companyName',
  'd.email',
  'd.phoneE164',
  'd.tier',
  'd.status',
  'd.rejectionReason',
] as const;

/** A row of the admin table, from `dealers as d` (with its referrer's name and own recruiter id). */
const LIST_COLUMNS = [
  ...APPLICANT_COLUMNS,
  'd.accessGranted',
  'd.recruiterId',
  'd.referredBy',
  'd.referralType',
  'd.approvalDate',
  'd.approvedBy',
  'd.createdAt',
  'd.updatedAt',
] as const;

/**
 * A search's window (decision 0792): the newest `size` dealers matching the search and tier
 * (ADMIN_SEARCH_WINDOW in @dn/schema; the counts ask for one more, to tell whether there are
 * more). Found by walking the `created_at` index or, for a rare match, from the trigram index and
 * a top-N sort, whichever the planner prices lower: either way a broad search reads about the same
 * rows at 10,000 or 1,000,000 dealers, where an exact count or a sort of every match grows with
 * the network.
 */
export function searchWindow(db: Executor, f: Pick<DealerListFilter, 'q' | 'tier'>, size: number): DealerQuery {
  return filteredDealers(db, f).orderBy('d.createdAt', 'desc').orderBy('d.id', 'desc').limit(size);
}

/**
 * One page of the admin table, newest first by default; never the password hash. The first page
 * of a tab without a search is what the console polls every 10 s: its values (tier, status, page
 * size) are enums and a bounded number, written into the SQL so the statement is planned once per
 * connection (runView). Its plan took longer than its run (0.9 against 0.6 ms at 100,000 dealers).
 * With a search, the page is sorted and cut from the search's window of `window` dealers (searchWindow).
 */
function dealerPage(db: Executor, f: DealerListFilter, window: number, polledPageSize: number | undefined) {
  const view = isView(f, polledPageSize);
  // The window carries the row's columns, so the page is not looked up again by id.
  const from = f.q
    ? (db.selectFrom(searchWindow(db, f, window).select(LIST_COLUMNS).as('d')) as unknown as DealerQuery)
    : filtered(db.selectFrom('dealers as d') as DealerQuery, f, view);
  let q = from
    .leftJoin('dealers as r', 'r.id', 'd.referredBy')
    .leftJoin('affiliateLinks as l', 'l.dealerId', 'd.id')
    .select([...LIST_COLUMNS, 'r.fullName as referredByName', 'l.recruiterId as ownRecruiterId']);
  if (f.status) q = q.where('d.status', '=', view ? sql.lit(f.status) : f.status);
  const dir = f.dir === 'asc' ? sql`asc` : sql`desc`;
  const sortExpr = DEALER_SORT_EXPR[f.sort];
  q = q.orderBy(sql`${sortExpr} ${dir}`);
  if (f.sort !== 'createdAt') q = q.orderBy(sql`d.created_at desc`);
  q = q.orderBy(sql`d.id ${dir}`);
  return view ? q.limit(sql.lit(f.pageSize)) : q.limit(f.pageSize).offset((f.page - 1) * f.pageSize);
}

/**
 * The polled first page of a tab without a search, at the page size the console polls with
 * (`polledPageSize`): a view (runView), compiled once per filter (viewOnce). Any other page size,
 * or none given, runs with parameters, so the statements a process names (MAX_VIEW_STATEMENTS) go
 * to what the console polls, not to every page size a client may ask for.
 */
const isView = (f: DealerListFilter, polledPageSize: number | undefined) =>
  !f.q && f.page === 1 && f.pageSize === polledPageSize;

/** A page of the admin table as rows: what dealerPageJson, which the console is answered with, must equal (its test). */
export async function listDealersPage(db: Executor, f: DealerListFilter, window: number, polledPageSize?: number) {
  const build = () => dealerPage(db, f, window, polledPageSize);
  return isView(f, polledPageSize)
    ? runView(db, viewOnce(db, `dealers.page:${JSON.stringify(f)}`, build))
    : build().execute();
}

export type AdminDealerRow = Awaited<ReturnType<typeof listDealersPage>>[number];

type ColumnName<C> = C extends `d.${infer K}` ? K : never;
/** The keys of an admin row, and those that are timestamps. */
const ROW_KEYS: readonly (keyof AdminDealerRow)[] = [
  ...LIST_COLUMNS.map((c) => c.slice(2) as ColumnName<typeof c>),
  'referredByName',
  'ownRecruiterId',
];
const TIMESTAMP_KEYS = new Set<string>(['approvalDate', 'createdAt', 'updatedAt'] satisfies (keyof AdminDealerRow)[]);

/** The page's columns (`p`) named as the row's keys (sql.raw: the camel-case plugin would snake-case an alias). */
const JSON_COLUMNS = sql.join(
  ROW_KEYS.map((key) => {
    const value = sql.ref(`p.${key}`);
    return sql`${TIMESTAMP_KEYS.has(key) ? isoTimestamp(value) : value} as ${sql.raw(`"${key}"`)}`;
  }),
);

/**
 * The same page as listDealersPage, as the JSON array PostgreSQL writes (decision 0800): the bytes
 * JSON.stringify writes for the rows read through Kysely (the same keys in the same order, the
 * same escapes, timestamps as toISOString), in the page's order. The console's poll is then
 * answered without a row object or Date made in the process: at 100,000 dealers, parsing, mapping and stringifying the 50 rows took a third of the
 * process's time on this endpoint (bench/findings.md).
 */
export async function dealerPageJson(
  db: Executor,
  f: DealerListFilter,
  window: number,
  polledPageSize?: number,
): Promise<JsonText<AsJson<AdminDealerRow>[]>> {
  // row_to_json writes each row as JSON.stringify would; string_agg keeps the page's order.
  const build = () => sql<{
    json: string;
  }>`select '[' || coalesce(string_agg(row_to_json(j)::text, ','), '') || ']' as json
    from (select ${JSON_COLUMNS} from (${dealerPage(db, f, window, polledPageSize)}) as p) as j`;
  const [row] = isView(f, polledPageSize)
    ? await runView(db, viewOnce(db, `dealers.page-json:${JSON.stringify(f)}`, build))
    : (await build().execute(db)).rows;
  return new JsonText(row?.json ?? '[]');
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

/**
 * A dealer's whole application for the admin's detail view (issue 36): every answer of the wizard,
 * where it stands, who referred it (their name, and the recruiter id of their affiliate link) and
 * the dealer's own affiliate link (`ownRecruiterId`). Never the password, the user-agent hash or the raw payload.
 */
export function findDealerApplication(db: Executor, id: string) {
  return db
    .selectFrom('dealers as d')
    .leftJoin('dealers as r', 'r.id', 'd.referredBy')
    .leftJoin('affiliateLinks as l', 'l.dealerId', 'd.id')
    .leftJoin('affiliateLinks as rl', 'rl.dealerId', 'd.referredBy')
    .select([
      ...LIST_COLUMNS,
      'd.addressJson',
      'd.entityType',
      'd.licensedInstallers',
      'd.crewCount',
      'd.insuranceCertUrl',
      'd.maintainInventory',
      'd.salesReps',
      'd.monthlyVolume',
      'd.crmName',
      'd.permittingCapable',
      'd.homePerformance',
      'd.productVerticals',
      'd.onboardingCallOk',
      'd.dealerAgreementUrl',
      'd.logoUrl',
      'd.inReferralPicker',
      'd.totalOrders',
      'd.totalRevenue',
      'd.lastOrderDate',
      'd.averageOrderValue',
      'd.firstOrderAt',
      'd.externalCrmId',
      'r.fullName as referredByName',
      'r.companyName as referredByCompany',
      'rl.recruiterId as referrerLinkId',
      'l.recruiterId as ownRecruiterId',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/**
 * The searchable dealer picker (Link Referral, the commissions' recruiter filter): small pages, same
 * search as the table. `referrersOnly`: only dealers who may refer (approved or active, as
 * findReferrableDealer), never a rejected applicant (issue 36).
 */
export function searchDealerOptions(db: Executor, q: string | undefined, limit: number, referrersOnly = false) {
  let query = db.selectFrom('dealers as d') as DealerQuery;
  if (q) query = query.where(SEARCH_TEXT, 'like', likePattern(q));
  if (referrersOnly) query = query.where('d.status', 'in', ['approved', 'active']);
  return query
    .select(['d.id', 'd.fullName', 'd.companyName', 'd.email'])
    .orderBy(sql`lower(d.full_name)`)
    .orderBy('d.id')
    .limit(limit)
    .execute();
}

/** A dealer who may be named as a referrer: approved or active. */
export async function findReferrableDealer(db: Executor, id: string) {
  return db
    .selectFrom('dealers')
    .select(['id', 'email'])
    .where('id', '=', id)
    .where('status', 'in', ['approved', 'active'])
    .executeTakeFirst();
}

/** The referral picker's list (SPEC section 3: id, fullName, companyName). */
export async function listPublicDealers(db: Executor, limit = 2_000) {
  return db
    .selectFrom('dealers')
    .select(['id', 'fullName', 'companyName'])
    .where('status', 'in', ['approved', 'active'])
    .orderBy(sql`lower(full_name)`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The dealer with this email, in any letter case (the unique index is on lower(email)). */
export const findDealerByEmailCi = (db: Executor, email: string) =>
  db
    .selectFrom('dealers')
    .select(['id', 'email', 'fullName'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();

export async function dealerIdByEmail(db: Executor, email: string) {
  return (await findDealerByEmailCi(db, email))?.id ?? null;
}

/** Stores a new application; the unique index on lower(email) refuses a duplicate. */
export function insertDealer(db: Executor, values: NewDealer) {
  return db
    .insertInto('dealers')
    .values(values)
    .returning(['id', 'fullName', 'email', 'tier'])
    .executeTakeFirstOrThrow();
}

/**
 * A new application and everything it causes, in ONE statement: the hits against the sender's
 * budgets (`budgets`), then, only while every count is within its budget, the dealer row (its id
 * chosen by the caller, so every other row can name it), its audit rows, its status link, its
 * "application received" email and, for a link referral, the link's counter. Signups are many and
 * each held a pooled connection and waited for a commit per round trip (issue 16). A refused or
 * duplicate application (the unique index on lower(email)) stores none of its rows, but its hits
 * stay counted: the caller gives back what it did not spend (decision 0701). Returns whether it
 * was stored and each budget's window.
 */
export async function insertApplication(
  db: Executor,
  a: NewApplication,
): Promise<{ stored: boolean; windows: HitWindow[] }> {
  const rows = { ...a, mail: mailValues(a.mail) };
  const values: Record<string, unknown> = {};
  namedValues(rows, (name, value) => {
    values[name] = value;
    return value;
  });
  const shape = Object.keys(values).join();
  let run = applicationStatements.get(shape);
  if (!run) {
    run = prepareQuery(Object.keys(values), (kdb, marks) =>
      applicationStatement(
        kdb,
        namedValues(rows, (name) => marks[name]),
      ),
    );
    if (applicationStatements.size < MAX_APPLICATION_SHAPES) applicationStatements.set(shape, run);
  }
  const windows = (await run(db, values)).rows;
  return {
    stored: windows.some((w) => w.stored === true),
    windows: windows.map(({ key, count, resetAt }) => ({ key, count, resetAt })),
  };
}

export interface NewApplication {
  dealer: NewDealer & { id: string };
  audits: readonly AuditLogRow[];
  statusLinkHash: string;
  mail: NewMail;
  /** The affiliate link the application came through, whose referral count goes up; null for none. */
  linkId: string | null;
  /** At least one. */
  budgets: readonly Budget[];
  /** A referral that matches its recruiter (issue 35, finding 6): flagged in the same statement. */
  flag?: { recruiterDealerId: string; signals: string[]; reason: string };
}

type ApplicationRows = Omit<NewApplication, 'mail'> & { mail: ReturnType<typeof mailValues> };

/**
 * The statement of each shape of application (which columns it sets, how many audit rows, whether
 * a link), built and compiled once and named like the polls' (prepared.ts): building it took more
 * of the process's time than anything else in a signup, and PostgreSQL planned it every time. Its
 * values never change its plan (inserts and lookups by key). A handful of shapes occur; past this
 * many each further one is built every time.
 */
const applicationStatements = new Map<
  string,
  (db: Executor, values: Record<string, unknown>) => Promise<QueryResult<HitWindow & { stored: SqlBool }>>
>();
const MAX_APPLICATION_SHAPES = 32;

/**
 * The application with every value it sets passed through `value(name, it)`, where the name says
 * where the value goes (`dealer.email`, `audit0.message`, `budget1.max`); unset (undefined)
 * columns stay unset.
 */
function namedValues(a: ApplicationRows, value: (name: string, it: unknown) => unknown): ApplicationRows {
  const row = <R extends object>(prefix: string, r: R): R =>
    Object.fromEntries(columnsOf(r).map((k) => [k, value(`${prefix}.${k}`, r[k])])) as R;
  return {
    dealer: row('dealer', a.dealer),
    audits: a.audits.map((r, i) => row(`audit${i}`, r)),
    statusLinkHash: value('statusLinkHash', a.statusLinkHash) as string,
    mail: row('mail', a.mail),
    linkId: a.linkId === null ? null : (value('linkId', a.linkId) as string),
    budgets: a.budgets.map((b, i) => row(`budget${i}`, b)),
    ...(a.flag ? { flag: row('flag', a.flag) } : {}),
  };
}

function applicationStatement(db: Executor, a: ApplicationRows) {
  const withinBudgets = sql<boolean>`not exists (select from h where ${sql.join(
    a.budgets.map((b) => sql`(h.key = ${b.key} and h.count > ${b.max})`),
    sql` or `,
  )})`;
  // Every row below is inserted by `insert … select` from d: once when the dealer was stored, never
  // when it was not. (PostgreSQL types each value by its column, as in VALUES.)
  let q = db
    .with('h', () => sql<HitWindow>`(${countHitsSql(a.budgets)})`)
    .with('d', (w) =>
      w
        .insertInto('dealers')
        .columns(columnsOf(a.dealer))
        .expression(w.selectNoFrom(selectionOf(a.dealer)).where(withinBudgets))
        .onConflict((oc) => oc.doNothing())
        .returning('id'),
    )
    .with('s', (w) =>
      w
        .insertInto('applicationStatusLinks')
        .columns(['dealerId', 'tokenHash'])
        .expression(w.selectFrom('d').select((eb) => ['d.id', eb.val(a.statusLinkHash).as('tokenHash')]))
        .returning('dealerId'),
    )
    .with('m', (w) =>
      w
        .insertInto('emailOutbox')
        .columns(columnsOf(a.mail))
        .expression(w.selectFrom('d').select(selectionOf(a.mail)))
        .returning('id'),
    );
  // The parts below are read by no later part, so the builder's type need not name them.
  for (const [i, audit] of a.audits.entries()) {
    // A part a row: `insert … select` from a VALUES list would type its values as text.
    q = q.with(`a${i}`, (w) =>
      w
        .insertInto('auditLogs')
        .columns(columnsOf(audit))
        .expression(w.selectFrom('d').select(selectionOf(audit)))
        .returning('id'),
    ) as unknown as typeof q;
  }
  const { flag } = a;
  if (flag) {
    q = q.with('f', (w) =>
      w
        .insertInto('referralFlags')
        .columns(['referredDealerId', 'recruiterDealerId', 'signals', 'reason'])
        .expression(
          w
            .selectFrom('d')
            .select([
              'd.id',
              sql<string>`${flag.recruiterDealerId}::uuid`.as('recruiterDealerId'),
              sql<string[]>`${flag.signals}::text[]`.as('signals'),
              sql<string>`${flag.reason}::text`.as('reason'),
            ]),
        )
        .returning('id'),
    ) as unknown as typeof q;
  }
  // Without a link the update is left out: run on no row, its statement triggers (the link's
  // versions) would still fire, on every signup (issue 16).
  const { linkId } = a;
  if (linkId !== null) {
    q = q.with('l', (w) =>
      w
        .updateTable('affiliateLinks')
        .set((eb) => ({ totalReferrals: eb('totalReferrals', '+', 1), updatedAt: sql<Date>`now()` }))
        .where('id', '=', linkId)
        .where((eb) => eb.exists(eb.selectFrom('d').select('d.id')))
        .returning('id'),
    ) as unknown as typeof q;
  }
  return q
    .selectFrom('h')
    .select((eb) => ['h.key', 'h.count', 'h.resetAt', eb.exists(eb.selectFrom('d').select('d.id')).as('stored')]);
}

/** The columns a row sets (an undefined value sets none: the column keeps its default). */
const columnsOf = <R extends object>(row: R) =>
  Object.keys(row).filter((k) => row[k as keyof R] !== undefined) as (keyof R & string)[];

/** A row's values as a select list named by its columns, for `insert … select`. */
const selectionOf = <R extends object>(row: R) => columnsOf(row).map((k) => sql.val(row[k]).as(k));

/** Approved by `approvedBy` now, with access; a previous rejection reason is cleared. */
export async function markDealerApproved(db: Executor, id: string, approvedBy: string): Promise<void> {
  await db
    .updateTable('dealers')
    .set({
      status: 'approved',
      accessGranted: true,
      approvalDate: new Date(),
      approvedBy,
      rejectionReason: null,
      updatedAt: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function markAccessGranted(db: Executor, id: string): Promise<void> {
  await db.updateTable('dealers').set({ accessGranted: true, updatedAt: new Date() }).where('id', '=', id).execute();
}

export async function markDealerRejected(db: Executor, id: string, reason: string): Promise<void> {
  await db
    .updateTable('dealers')
    .set({ status: 'rejected', rejectionReason: reason, updatedAt: new Date() })
    .where('id', '=', id)
    .execute();
}

/** A new status; `approvedBy` also records the approval (date and admin) when given. */
export async function updateDealerStatus(
  db: Executor,
  id: string,
  status: DealerStatus,
  approvedBy: string | null,
): Promise<void> {
  await db
    .updateTable('dealers')
    .set({
      status,
      updatedAt: new Date(),
      ...(approvedBy ? { approvalDate: new Date(), approvedBy } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function updateDealerTier(db: Executor, id: string, tier: Tier): Promise<void> {
  await db.updateTable('dealers').set({ tier, updatedAt: new Date() }).where('id', '=', id).execute();
}

/** Referred by `referredBy`, linked by hand (referral type manual). */
export async function setManualReferral(db: Executor, id: string, referredBy: string): Promise<void> {
  await db
    .updateTable('dealers')
    .set({ referredBy, referralType: 'manual', updatedAt: new Date() })
    .where('id', '=', id)
    .execute();
}

/** The recruiter id of the dealer's own affiliate link: it is what makes the dealer a recruiter. */
export async function setDealerRecruiterId(db: Executor, id: string, recruiterId: string): Promise<void> {
  await db.updateTable('dealers').set({ recruiterId, updatedAt: new Date() }).where('id', '=', id).execute();
}

/** Deletes every dealer (links, tokens and commissions follow by foreign key); returns how many. */
export async function deleteAllDealers(db: Executor): Promise<number> {
  const r = await db.deleteFrom('dealers').executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Letters and digits of a search text's words, lower-cased (everything else separates words). */
export function searchWords(q: string): string[] {
  return (
    q
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? []
  );
}

/**
 * The referral picker's typeahead (issue 15): approved and active dealers in the picker whose name or company
 * starts with `q` (ranked first: name, then company) or has words starting with the words of `q`,
 * at most `limit`, never more than id, fullName and companyName. Every branch is an index scan
 * bounded by the limit (migration 2026-11-24-0640-self-service: btree text_pattern_ops on the
 * lowered name and company, GIN on the 'simple' tsvector of both), so 100,000 dealers answer
 * like 100: the same statement on PostgreSQL and PGlite (no extension needed).
 */
export async function searchPublicDealers(db: Executor, q: string, limit = 20) {
  const prefix = `${q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const words = searchWords(q);
  const tsquery = words.map((w) => `${w}:*`).join(' & ');
  // The partial indexes' predicate (migration 2026-11-28-0885): a dealer may leave the picker.
  const visible = sql`status in ('approved', 'active') and in_referral_picker`;
  // Each branch's first `limit` in the prefix index's own (byte) order, `using ~<~`: the scan of the
  // prefix's range stops after `limit` rows. Ordered by the collation instead, the planner walked
  // the admin table's name index from 'a' filtering for the prefix (0.35 s for 'jo' at 100,000
  // dealers, bench stage `admin`; docs/decisions/0740-bench-partner-and-admin-stages.md).
  const byName = sql`(select id, 0 as rank from dealers where ${visible} and lower(full_name) like ${prefix}
      order by lower(full_name) using ~<~ limit ${limit})`;
  const byCompany = sql`(select id, 1 as rank from dealers where ${visible}
      and lower(coalesce(company_name, '')) like ${prefix} order by lower(coalesce(company_name, '')) using ~<~ limit ${limit})`;
  const byWord = tsquery
    ? sql`(select id, 2 as rank from dealers where ${visible}
        and to_tsvector('simple', full_name || ' ' || coalesce(company_name, '')) @@ to_tsquery('simple', ${tsquery})
        limit ${limit})`
    : sql`(select null::uuid as id, 3 as rank where false)`;
  const { rows } = await sql<{ id: string; fullName: string; companyName: string | null }>`
    select d.id, d.full_name as "fullName", d.company_name as "companyName"
    from (select id, min(rank) as rank from (${byName} union all ${byCompany} union all ${byWord}) m group by id) hits
    join dealers d on d.id = hits.id
    order by hits.rank, lower(d.full_name), d.id
    limit ${limit}`.execute(db);
  return rows;
}
