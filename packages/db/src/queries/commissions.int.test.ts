import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, insertTestLedgerEntry, namedStatements, newDealer, type TestDatabase } from '../testing';
import type { CommissionStatus } from '../types';
import { ledgerTotals, listLedger } from './commissions';
import { insertDealer } from './dealers';

// The Commissions tab's polled first page and its totals are views (prepared.ts runView): the
// status and page size written in, planned once per connection. They must answer what the same
// filter answers as parameters.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const recruiter = (await insertDealer(t.db, newDealer('recruiter@ledger-view.test'))).id;
  const referred = (await insertDealer(t.db, { ...newDealer('referred@ledger-view.test'), referredBy: recruiter })).id;
  const statuses: CommissionStatus[] = ['pending', 'approved', 'paid', 'voided'];
  for (let i = 0; i < 24; i++) {
    const status = statuses[i % statuses.length]!;
    await insertTestLedgerEntry(t.db, {
      recruiterDealerId: recruiter,
      referredDealerId: referred,
      amount: `${i + 1}.10`,
      status,
    });
  }
});
afterAll(async () => {
  await t?.close();
});

describe(`the Commissions tab's first page on ${process.env.TEST_DB}`, () => {
  it('answers, as a view, the rows and totals the same filter answers with parameters', async () => {
    for (const status of [undefined, 'pending', 'approved', 'paid', 'voided', 'cancelled'] as const) {
      for (const limit of [1, 5, 20]) {
        const view = await listLedger(t.db, { status }, { limit, offset: 0 }, limit);
        // A date filter every row passes makes the same page a parameterised statement.
        const counted = await listLedger(t.db, { status, from: new Date(0) }, { limit, offset: 0 }, limit);
        expect(view, `status ${status ?? 'all'}, ${limit} a page`).toEqual(counted);
        expect(view.length).toBe(Math.min(limit, status === 'cancelled' ? 0 : status ? 6 : 24));
      }
      expect(await ledgerTotals(t.db, { status })).toEqual(await ledgerTotals(t.db, { status, from: new Date(0) }));
    }
  });

  it('is planned once per PostgreSQL connection, with no parameters; later pages, other page sizes and other filters are not', async () => {
    await t.db.connection().execute(async (c) => {
      const recruiterDealerId = (
        await c
          .selectFrom('dealers')
          .select('id')
          .where('email', '=', 'recruiter@ledger-view.test')
          .executeTakeFirstOrThrow()
      ).id;
      for (let i = 0; i < 2; i++) {
        await listLedger(c, { status: 'approved' }, { limit: 13, offset: 0 }, 13);
        await ledgerTotals(c, { status: 'approved' });
      }
      await listLedger(c, { status: 'approved' }, { limit: 13, offset: 13 }, 13);
      await listLedger(c, { status: 'approved', recruiterDealerId }, { limit: 13, offset: 0 }, 13);
      // A page size the tab does not poll with: with parameters, so no client can use up the names.
      await listLedger(c, { status: 'approved' }, { limit: 14, offset: 0 }, 13);
      await listLedger(c, { status: 'approved' }, { limit: 14, offset: 0 }, 13);
      await ledgerTotals(c, { status: 'approved', recruiterDealerId });
      // The first test may have run on this connection too: its other views are named, not these.
      const rows = (await namedStatements(c)).filter(
        (r) =>
          r.statement.includes('limit 13') ||
          r.statement.includes('limit 14') ||
          r.statement.includes('"c"."status" = $') ||
          r.statement.includes("from commission_totals where status = 'approved'"),
      );
      if (process.env.TEST_DB !== 'postgres') {
        // PGlite is one session behind its socket: nothing is named there (client.ts).
        expect(rows).toEqual([]);
        return;
      }
      const page = rows.filter((r) => r.statement.includes('limit 13'));
      expect(page).toHaveLength(1);
      expect(page[0]!.statement).toContain(`"c"."status" = 'approved'`);
      expect(page[0]!.statement).not.toContain('offset');
      const totals = rows.filter((r) => r.statement.includes("from commission_totals where status = 'approved'"));
      expect(totals).toHaveLength(1);
      // Only those two: a later page, another page size and a recruiter's filter are parameterised, and not named.
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.parameterTypes === '{}')).toBe(true);
    });
  });
});
