import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, namedStatements, newDealer, type TestDatabase } from '../testing';
import type { AuditLogRow } from './audit-logs';
import { countDealersByStatus, dealerMetrics, type StatusCounts } from './dealer-counts';
import {
  dealerIdByEmail,
  dealerPageJson,
  deleteAllDealers,
  findDealerForAdmin,
  findReferrableDealer,
  insertApplication,
  insertDealer,
  listDealersPage,
  listPublicDealers,
  markAccessGranted,
  markDealerApproved,
  markDealerRejected,
  type NewApplication,
  searchDealerOptions,
  setDealerRecruiterId,
  setManualReferral,
  updateDealerStatus,
  updateDealerTier,
} from './dealers';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const read = (id: string) =>
  t.db
    .selectFrom('dealers')
    .select([
      'status',
      'tier',
      'accessGranted',
      'approvalDate',
      'approvedBy',
      'rejectionReason',
      'referredBy',
      'referralType',
      'recruiterId',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const page = { sort: 'fullName', dir: 'asc', page: 1, pageSize: 50 } as const;
/** The search window of the admin's table (ADMIN_SEARCH_WINDOW in @dn/schema, decision 0792). */
const WINDOW = 1_000;

/**
 * An application as signup stores it: one signed-up audit row (and `note` before it), a status link,
 * an email whose subject is the address, no link, and one budget of `max` under `key`.
 */
function newApplication(
  email: string,
  { key = `budget:${email}`, max = 100, note }: { key?: string; max?: number; note?: Partial<AuditLogRow> } = {},
): NewApplication {
  const id = crypto.randomUUID();
  const signedUp = { eventType: 'dealer.signed_up', category: 'signup', message: 'applied', dealerId: id };
  return {
    dealer: { ...newDealer(email), id },
    audits: note ? [{ ...signedUp, ...note }, signedUp] : [signedUp],
    statusLinkHash: `hash-${id}`,
    mail: {
      kind: 'application_received',
      toAddress: email,
      subject: email,
      textBody: email,
      htmlBody: null,
      attachments: [],
      dealerId: id,
    },
    linkId: null,
    budgets: [{ key, windowSec: 3600, max }],
  };
}

describe(`dealers queries on ${process.env.TEST_DB}`, () => {
  it('stores an application with its audit row, status link, email and link count in one statement, or none of it', async () => {
    const recruiter = await insertDealer(t.db, newDealer('recruiter@application.test'));
    const link = await t.db
      .insertInto('affiliateLinks')
      .values({ dealerId: recruiter.id, recruiterId: 'apprec1', affiliateCode: 'apprec1', updatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const budgets = [
      { key: 'app:ip', windowSec: 3600, max: 3 },
      { key: 'app:mail', windowSec: 60, max: 100 },
    ];
    const application = (email: string, id: string) => {
      const base = newApplication(email);
      return {
        ...base,
        dealer: { ...base.dealer, id },
        audits: [
          {
            eventType: 'referral.self_refused',
            category: 'affiliate',
            message: 'a note',
            dealerId: id,
            success: false,
          },
          { eventType: 'dealer.signed_up', category: 'signup', message: 'applied', dealerId: id, details: '{"a":1}' },
        ],
        mail: {
          ...base.mail,
          dealerId: id,
          attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: 'x' }],
        },
        linkId: link.id,
        budgets,
      };
    };
    const counts = async (dealerId: string) => ({
      dealers: (await t.db.selectFrom('dealers').select('id').where('id', '=', dealerId).execute()).length,
      audits: (await t.db.selectFrom('auditLogs').select('id').where('dealerId', '=', dealerId).execute()).length,
      links: (await t.db.selectFrom('applicationStatusLinks').selectAll().where('dealerId', '=', dealerId).execute())
        .length,
      mails: (await t.db.selectFrom('emailOutbox').select('id').where('dealerId', '=', dealerId).execute()).length,
    });
    const referrals = async () =>
      (
        await t.db
          .selectFrom('affiliateLinks')
          .select('totalReferrals')
          .where('id', '=', link.id)
          .executeTakeFirstOrThrow()
      ).totalReferrals;
    const hits = async () =>
      Object.fromEntries(
        (await t.db.selectFrom('rateLimits').select(['key', 'count']).where('key', 'like', 'app:%').execute()).map(
          (r) => [r.key, r.count],
        ),
      );

    const id = crypto.randomUUID();
    const first = await insertApplication(t.db, application('Applicant@Application.test', id));
    expect(first).toEqual({
      stored: true,
      windows: expect.arrayContaining([
        { key: 'app:ip', count: 1, resetAt: expect.any(Date) },
        { key: 'app:mail', count: 1, resetAt: expect.any(Date) },
      ]),
    });
    expect(await counts(id)).toEqual({ dealers: 1, audits: 2, links: 1, mails: 1 });
    expect(await referrals()).toBe(1);
    // Every value kept its type: the typed columns were typed by their columns, not as text.
    const stored = await t.db
      .selectFrom('auditLogs')
      .select(['eventType', 'details', 'success'])
      .where('dealerId', '=', id)
      .orderBy('eventType')
      .execute();
    expect(stored).toEqual([
      { eventType: 'dealer.signed_up', details: { a: 1 }, success: true },
      { eventType: 'referral.self_refused', details: null, success: false },
    ]);
    const mail = await t.db
      .selectFrom('emailOutbox')
      .select(['attachments', 'status'])
      .where('dealerId', '=', id)
      .executeTakeFirstOrThrow();
    expect(mail).toEqual({
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: 'x' }],
      status: 'pending',
    });

    // The same email again (any case): not stored, none of it, but its hits are counted.
    const dup = crypto.randomUUID();
    expect(await insertApplication(t.db, application('applicant@APPLICATION.test', dup))).toMatchObject({
      stored: false,
    });
    expect(await counts(dup)).toEqual({ dealers: 0, audits: 0, links: 0, mails: 0 });
    expect(await referrals()).toBe(1);
    expect(await hits()).toEqual({ 'app:ip': 2, 'app:mail': 2 });

    // Without a link nothing is counted.
    const plain = crypto.randomUUID();
    await insertApplication(t.db, { ...application('plain@application.test', plain), linkId: null });
    expect(await counts(plain)).toEqual({ dealers: 1, audits: 2, links: 1, mails: 1 });
    expect(await referrals()).toBe(1);

    // Over a budget (the fourth hit of three): nothing stored, the hit counted.
    const over = crypto.randomUUID();
    const refused = await insertApplication(t.db, application('over@application.test', over));
    expect(refused.stored).toBe(false);
    expect(refused.windows.find((w) => w.key === 'app:ip')?.count).toBe(4);
    expect(await counts(over)).toEqual({ dealers: 0, audits: 0, links: 0, mails: 0 });
    expect(await referrals()).toBe(1);
    expect(await dealerIdByEmail(t.db, 'over@application.test')).toBeNull();
  });

  it('stores one of many identical applications sent at once, and at most a budget of different ones', async () => {
    const same = await Promise.all(
      Array.from({ length: 20 }, () =>
        insertApplication(t.db, newApplication('same@burst.test', { key: 'burst:same' })),
      ),
    );
    expect(same.filter((r) => r.stored)).toHaveLength(1);
    expect(same.map((r) => r.windows[0]?.count).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const mails = await t.db
      .selectFrom('emailOutbox')
      .select('id')
      .where('toAddress', '=', 'same@burst.test')
      .execute();
    expect(mails).toHaveLength(1);

    const different = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        insertApplication(t.db, newApplication(`b${i}@burst.test`, { key: 'burst:ip', max: 5 })),
      ),
    );
    expect(different.filter((r) => r.stored)).toHaveLength(5);
    const rows = await t.db.selectFrom('dealers').select('id').where('email', 'like', 'b%@burst.test').execute();
    expect(rows).toHaveLength(5);
  });

  it('builds the statement of each shape of application once, prepared once per PostgreSQL connection', async () => {
    await t.db.connection().execute(async (c) => {
      // The pool may hand over a connection the tests above prepared other shapes on: what counts
      // is what these five inserts ran.
      const before = new Map((await namedStatements(c)).map((r) => [r.statement, r.runs]));
      for (const [i, withNote] of [false, false, true, false, true].entries()) {
        expect(
          (
            await insertApplication(
              c,
              newApplication(
                `shape${i}@application.test`,
                withNote ? { note: { eventType: 'referral.unknown_recruiter' } } : {},
              ),
            )
          ).stored,
        ).toBe(true);
      }
      // Each stored its own values, not the first one's.
      const stored = await c
        .selectFrom('dealers as d')
        .innerJoin('emailOutbox as m', 'm.dealerId', 'd.id')
        .select(['d.email', 'm.subject'])
        .where('d.email', 'like', 'shape%@application.test')
        .orderBy('d.email')
        .execute();
      expect(stored).toEqual(
        [0, 1, 2, 3, 4].map((i) => ({ email: `shape${i}@application.test`, subject: `shape${i}@application.test` })),
      );
      const named = (await namedStatements(c)).filter((r) => r.statement.includes('insert into "dealers"'));
      if (process.env.TEST_DB !== 'postgres') {
        expect(named).toEqual([]);
        return;
      }
      // Two shapes, five runs: each shape named once on this connection and run again by name.
      const ran = named.map((r) => r.runs - (before.get(r.statement) ?? 0)).filter((n) => n > 0);
      expect(ran.sort((a, b) => a - b)).toEqual([2, 3]);
    });
  });

  it('stores an application and finds it by email regardless of case', async () => {
    const row = await insertDealer(t.db, { ...newDealer('New.App@Dealers.test'), tier: 'Preferred' });
    expect(row).toEqual({
      id: expect.any(String),
      fullName: 'Jane Roe',
      email: 'New.App@Dealers.test',
      tier: 'Preferred',
    });
    expect(await dealerIdByEmail(t.db, 'new.app@DEALERS.test')).toBe(row.id);
    expect(await dealerIdByEmail(t.db, 'nobody@dealers.test')).toBeNull();
    await expect(insertDealer(t.db, newDealer('new.app@dealers.test'))).rejects.toThrow(/unique/i);
  });

  it('approves, grants access, rejects, and changes status and tier', async () => {
    const { id } = await insertDealer(t.db, newDealer('flow@dealers.test'));
    await markDealerRejected(t.db, id, 'Incomplete');
    expect(await read(id)).toMatchObject({ status: 'rejected', rejectionReason: 'Incomplete' });

    await markDealerApproved(t.db, id, 'boss');
    const approved = await read(id);
    expect(approved).toMatchObject({
      status: 'approved',
      accessGranted: true,
      approvedBy: 'boss',
      rejectionReason: null,
    });
    expect(approved.approvalDate).toBeInstanceOf(Date);

    // Without an approver the approval record stays as it was.
    await updateDealerStatus(t.db, id, 'suspended', null);
    expect(await read(id)).toMatchObject({ status: 'suspended', approvedBy: 'boss' });
    await updateDealerStatus(t.db, id, 'approved', 'other-admin');
    expect(await read(id)).toMatchObject({ status: 'approved', approvedBy: 'other-admin' });

    await updateDealerTier(t.db, id, 'Authorized');
    expect((await read(id)).tier).toBe('Authorized');

    const { id: pending } = await insertDealer(t.db, newDealer('access@dealers.test'));
    await markAccessGranted(t.db, pending);
    expect(await read(pending)).toMatchObject({ status: 'pending', accessGranted: true, approvedBy: null });
  });

  it('reads a dealer for the admin, never the password hash, locked inside a transaction', async () => {
    const { id } = await insertDealer(t.db, { ...newDealer('admin-read@dealers.test'), password: 'hash' });
    const dealer = await t.db.transaction().execute((trx) => findDealerForAdmin(trx, id, true));
    expect(dealer).toMatchObject({ id, email: 'admin-read@dealers.test', status: 'pending' });
    expect(dealer).not.toHaveProperty('password');
    expect(await findDealerForAdmin(t.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('lists only approved and active dealers as referrers, with the public columns only', async () => {
    const mk = async (email: string, fullName: string, status: 'approved' | 'active' | 'pending' | 'suspended') => {
      const { id } = await insertDealer(t.db, { ...newDealer(email), fullName, status });
      return id;
    };
    const zed = await mk('zed@public.test', 'zed Public', 'active');
    const amy = await mk('amy@public.test', 'Amy Public', 'approved');
    const pending = await mk('pat@public.test', 'Pat Public', 'pending');
    await mk('sue@public.test', 'Sue Public', 'suspended');

    const listed = (await listPublicDealers(t.db)).filter((d) => d.fullName.endsWith('Public'));
    expect(listed).toEqual([
      { id: amy, fullName: 'Amy Public', companyName: null },
      { id: zed, fullName: 'zed Public', companyName: null },
    ]);
    expect(await findReferrableDealer(t.db, amy)).toEqual({ id: amy, email: 'amy@public.test' });
    expect(await findReferrableDealer(t.db, pending)).toBeUndefined();
  });

  it('records a manual referral and the dealer own recruiter id', async () => {
    const { id: referrer } = await insertDealer(t.db, newDealer('referrer@dealers.test'));
    const { id } = await insertDealer(t.db, newDealer('referred@dealers.test'));
    await setManualReferral(t.db, id, referrer);
    await setDealerRecruiterId(t.db, referrer, 'REF-1');
    expect(await read(id)).toMatchObject({ referredBy: referrer, referralType: 'manual' });
    expect((await read(referrer)).recruiterId).toBe('REF-1');
  });

  it('searches names, companies and emails with the wildcards of the text taken literally', async () => {
    await insertDealer(t.db, { ...newDealer('pct@search.test'), fullName: 'Percent 100% Solar', status: 'approved' });
    await insertDealer(t.db, { ...newDealer('plain@search.test'), fullName: 'Percent 1000 Solar', status: 'active' });
    // The Link Referral picker offers no applicant who may not refer (issue 36).
    await insertDealer(t.db, { ...newDealer('no@search.test'), fullName: 'Percent 100 Solar', status: 'rejected' });
    const hits = await listDealersPage(t.db, { ...page, q: '100%' }, WINDOW);
    expect(hits.map((d) => d.email)).toEqual(['pct@search.test']);
    expect(hits[0]).not.toHaveProperty('password');
    const options = await searchDealerOptions(t.db, 'search.test', 20, true);
    expect(options.map((o) => o.email).sort()).toEqual(['pct@search.test', 'plain@search.test']);
    const any = await searchDealerOptions(t.db, 'search.test', 20);
    expect(any.map((o) => o.email).sort()).toEqual(['no@search.test', 'pct@search.test', 'plain@search.test']);
    // The later tests count every dealer: the rejected one leaves.
    await t.db.deleteFrom('dealers').where('email', '=', 'no@search.test').execute();
  });

  it('answers the first page of every tab and tier, its values written into the SQL, as the filters say', async () => {
    const tiers = ['Affiliate', 'Authorized', 'Preferred'] as const;
    const statuses = ['pending', 'approved', 'rejected', 'active', 'inactive', 'suspended'] as const;
    for (const [i, status] of statuses.entries()) {
      for (const tier of tiers) {
        await insertDealer(t.db, {
          ...newDealer(`${status}.${tier}@view.test`),
          fullName: `View ${i} ${tier}`,
          status,
          tier,
        });
      }
    }
    let compared = 0;
    for (const status of [undefined, ...statuses]) {
      for (const tier of [undefined, ...tiers]) {
        for (const [sort, dir] of [
          ['createdAt', 'desc'],
          ['fullName', 'asc'],
          ['status', 'desc'],
        ] as const) {
          const f = { status, tier, sort, dir, page: 1, pageSize: 4 };
          // A search every email matches takes the parameterised path: the same rows in the same order.
          const viaParams = await listDealersPage(t.db, { ...f, q: '@' }, WINDOW);
          expect(await listDealersPage(t.db, f, WINDOW, f.pageSize)).toEqual(viaParams);
          compared += viaParams.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    // The counts of every tier choice, its tier written in, agree with a grouped count (a search
    // every dealer matches); the counters keep a row at zero that a grouped count does not have.
    const nonZero = ({ counts }: StatusCounts) =>
      new Map(counts.filter((c) => c.count > 0).map((c) => [c.status, c.count]));
    for (const tier of [undefined, ...tiers]) {
      const kept = nonZero(await countDealersByStatus(t.db, { tier }, WINDOW));
      expect(kept.get('suspended')).toBeGreaterThan(0);
      expect(kept).toEqual(nonZero(await countDealersByStatus(t.db, { tier, q: '@' }, WINDOW)));
    }
  });

  it('prepares the first page without a search once per PostgreSQL connection, and nothing else of the list', async () => {
    await t.db.connection().execute(async (c) => {
      const f = {
        sort: 'createdAt',
        dir: 'desc',
        page: 1,
        pageSize: 7,
        tier: 'Authorized',
        status: 'pending',
      } as const;
      await listDealersPage(c, f, WINDOW, 7);
      await listDealersPage(c, f, WINDOW, 7);
      await listDealersPage(c, { ...f, page: 2 }, WINDOW, 7);
      await listDealersPage(c, { ...f, q: 'view' }, WINDOW, 7);
      await dealerPageJson(c, f, WINDOW, 7);
      await dealerPageJson(c, f, WINDOW, 7);
      await dealerPageJson(c, { ...f, page: 2 }, WINDOW, 7);
      // A page size the console does not poll with: with parameters, so no client can use up the names.
      await dealerPageJson(c, { ...f, pageSize: 8 }, WINDOW, 7);
      await dealerPageJson(c, { ...f, pageSize: 8 }, WINDOW, 7);
      await countDealersByStatus(c, { tier: 'Authorized' }, WINDOW);
      await countDealersByStatus(c, { tier: 'Authorized' }, WINDOW);
      const rows = (await namedStatements(c)).filter(
        (r) =>
          r.statement.includes('limit 7') ||
          r.statement.includes('limit 8') ||
          (r.statement.includes('dealer_counts') && r.statement.includes("'Authorized'")),
      );
      if (process.env.TEST_DB !== 'postgres') {
        // PGlite is one session behind its socket: nothing is named there (client.ts).
        expect(rows).toEqual([]);
        return;
      }
      // The page as rows, the page as JSON (what the console is answered with) and the counts.
      expect(rows).toHaveLength(3);
      for (const page of rows.filter((r) => r.statement.includes('limit 7'))) {
        expect(page.statement).toContain(`"d"."tier" = 'Authorized'`);
        expect(page.statement).toContain(`"d"."status" = 'pending'`);
        expect(page.statement).not.toContain('offset');
      }
      expect(rows.filter((r) => r.statement.includes('row_to_json'))).toHaveLength(1);
      expect(rows.find((r) => r.statement.includes('dealer_counts'))!.statement).toContain(`tier = 'Authorized'`);
      // No parameters: the plan kept is the one for these very values.
      expect(rows.every((r) => r.parameterTypes === '{}')).toBe(true);
    });
  });

  // After the test above: its many first pages take up names a process gives views (MAX_VIEW_STATEMENTS).
  it('writes a page as JSON the very bytes JSON.stringify writes for its rows, for every filter, sort and page', async () => {
    const referrer = await insertDealer(t.db, {
      ...newDealer('referrer@json.test'),
      fullName: 'Ref "The Boss" \\ O\'Neil',
    });
    const awkward = [
      'Quote " and backslash \\ and slash /',
      'Line\nbreak\ttab\rreturn',
      `Control ${String.fromCharCode(1)}${String.fromCharCode(31)} and DEL ${String.fromCharCode(127)}`,
      'Ünïcödé 名前 😀 \u2028 \u2029',
      '</script><b>html</b>',
    ];
    for (const [i, fullName] of awkward.entries()) {
      const d = await insertDealer(t.db, {
        ...newDealer(`json${i}@json.test`),
        fullName,
        companyName: i % 2 ? null : `Co ${fullName}`,
        referredBy: referrer.id,
        referralType: 'manual',
        status: i % 2 ? 'approved' : 'pending',
        tier: i % 2 ? 'Preferred' : 'Affiliate',
      });
      // Microseconds: JSON.stringify writes a Date to the millisecond, cut rather than rounded.
      await sql`update dealers set created_at = ${`2026-0${i + 1}-15 10:20:30.${999_999 - i}+00`}::timestamptz,
        approval_date = case when ${i % 2 === 1} then now() end where id = ${d.id}`.execute(t.db);
    }
    await t.db
      .insertInto('affiliateLinks')
      .values({ dealerId: referrer.id, recruiterId: 'jsonrec', affiliateCode: 'jsonrec', updatedAt: new Date() })
      .execute();
    let rows = 0;
    for (const sort of ['createdAt', 'fullName', 'companyName', 'email', 'tier', 'status'] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        for (const extra of [
          {},
          { q: 'json' },
          { q: '😀' },
          { status: 'approved' },
          { tier: 'Affiliate' },
          { page: 2 },
        ] as const) {
          const f = { sort, dir, page: 1, pageSize: 3, ...extra };
          const expected = JSON.stringify(await listDealersPage(t.db, f, WINDOW, f.pageSize));
          const json = await dealerPageJson(t.db, f, WINDOW, f.pageSize);
          expect(json.text).toBe(expected);
          // Any other JSON.stringify (tRPC's own handler) writes the same from the parsed value.
          expect(JSON.stringify({ items: json })).toBe(`{"items":${expected}}`);
          rows += JSON.parse(expected).length;
        }
      }
    }
    expect(rows).toBeGreaterThan(100);
    expect(JSON.stringify(await listDealersPage(t.db, { ...page, q: 'json', status: 'approved' }, WINDOW))).toContain(
      '"referredByName":"Ref \\"The Boss\\" \\\\ O\'Neil"',
    );
    expect((await dealerPageJson(t.db, { ...page, q: 'no dealer has this' }, WINDOW)).text).toBe('[]');
  });

  it('counts per status from the counters and from a search alike', async () => {
    const all = await listDealersPage(t.db, page, WINDOW);
    const expected = new Map<string, number>();
    for (const d of all) expected.set(d.status, (expected.get(d.status) ?? 0) + 1);
    // The counters keep a row at zero for a status that was emptied; a grouped count has no row.
    const nonZero = ({ counts }: StatusCounts) =>
      new Map(counts.filter((c) => c.count > 0).map((c) => [c.status, c.count]));
    expect(nonZero(await countDealersByStatus(t.db, {}, WINDOW))).toEqual(expected);
    // A search matching every dealer takes the grouped-count path and must agree.
    expect(nonZero(await countDealersByStatus(t.db, { q: '@' }, WINDOW))).toEqual(expected);

    const metrics = await dealerMetrics(t.db);
    expect(metrics.totalDealers).toBe(all.length);
    expect(metrics.pendingApplications).toBe(expected.get('pending') ?? 0);
    expect(metrics.approvedDealers).toBe((expected.get('approved') ?? 0) + (expected.get('active') ?? 0));
  });

  it('deletes every dealer inside the caller transaction, which can still roll it back', async () => {
    const before = (await listDealersPage(t.db, page, WINDOW)).length;
    const rollback = new Error('rollback');
    await expect(
      t.db.transaction().execute(async (trx) => {
        expect(await deleteAllDealers(trx)).toBe(before);
        expect(await listDealersPage(trx, page, WINDOW)).toEqual([]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect((await listDealersPage(t.db, page, WINDOW)).length).toBe(before);
  });
});
