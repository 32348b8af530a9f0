import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0860 from '../migrations/2026-11-28-0860-ledger-payable';
import { createTestDatabase, insertTestLedgerEntry, newDealer, type TestDatabase } from '../testing';
import type { CommissionStatus } from '../types';
import { approvePending, ledgerTotals, voidLedgerEntry } from './commissions';
import { insertDealer } from './dealers';
import { insertPayout } from './payouts';

// ledgerTotals answers an unfiltered or status-only filter from commission_totals, kept by
// triggers (migration 0741); a filter by dates aggregates the ledger itself. Both must agree.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const STATUSES: (CommissionStatus | undefined)[] = [undefined, 'pending', 'approved', 'paid', 'voided'];

/** Every figure from the kept totals equals the same figure aggregated from the ledger. */
async function expectKeptTotalsExact() {
  for (const status of STATUSES) {
    const kept = await ledgerTotals(t.db, { status });
    const counted = await ledgerTotals(t.db, { status, from: new Date(0) });
    expect(kept, `status ${status ?? 'all'}`).toEqual(counted);
  }
}

const earn = (recruiter: string, referred: string, amount: string, kind: 'commission' | 'clawback' = 'commission') =>
  insertTestLedgerEntry(t.db, { recruiterDealerId: recruiter, referredDealerId: referred, amount, kind });

describe(`commission totals kept by triggers on ${process.env.TEST_DB}`, () => {
  it('stay equal to the ledger through inserts, approvals, voids, payouts and deletes', async () => {
    const recruiter = (await insertDealer(t.db, newDealer('recruiter@totals.test'))).id;
    const referred = (await insertDealer(t.db, { ...newDealer('referred@totals.test'), referredBy: recruiter })).id;
    await expectKeptTotalsExact();
    const ids = [];
    for (const amount of ['10.00', '0.01', '123.45', '7.50']) ids.push(await earn(recruiter, referred, amount));
    await earn(recruiter, referred, '-10.00', 'clawback');
    await expectKeptTotalsExact();
    expect((await ledgerTotals(t.db, {})).total).toBe(5);
    expect((await ledgerTotals(t.db, { status: 'pending' })).pending).toBe('140.96');

    await approvePending(t.db, ids.slice(0, 2), 'admin', new Date());
    await voidLedgerEntry(t.db, ids[2]!, 'Order cancelled');
    await expectKeptTotalsExact();
    expect(await ledgerTotals(t.db, { status: 'approved' })).toMatchObject({ total: 3, approved: '10.01' });
    // Payable: the approved commissions net of the approved clawback (10.00 + 0.01 - 10.00).
    expect((await ledgerTotals(t.db, {})).payable).toBe('0.01');
    // Taken by a payout batch: no longer payable (migration 0860), in the kept totals as in the ledger.
    const payout = await insertPayout(t.db, {
      minimum: '0.00',
      total: '0.00',
      recruiterCount: 0,
      commissionCount: 0,
      createdBy: 'test',
    });
    await t.db.updateTable('commissions').set({ payoutId: payout.id }).where('id', '=', ids[0]!).execute();
    await expectKeptTotalsExact();
    expect(await ledgerTotals(t.db, {})).toMatchObject({ approved: '10.01', payable: '-9.99' });

    // A change that moves nothing between totals, then paid, then a row without a recruiter (not in the ledger).
    await t.db.updateTable('commissions').set({ approvedBy: 'someone' }).where('id', '=', ids[0]!).execute();
    await t.db.updateTable('commissions').set({ status: 'paid' }).where('id', '=', ids[1]!).execute();
    await t.db.updateTable('commissions').set({ recruiterDealerId: null }).where('id', '=', ids[3]!).execute();
    await expectKeptTotalsExact();

    // Deleting the referred dealer deletes its commissions (cascade): the totals follow.
    await t.db.deleteFrom('dealers').where('id', '=', referred).execute();
    await expectKeptTotalsExact();
    expect((await ledgerTotals(t.db, {})).total).toBe(0);
  });

  it('stay exact when many transactions earn at once on different connections', async () => {
    const recruiter = (await insertDealer(t.db, newDealer('busy@totals.test'))).id;
    const referred = (await insertDealer(t.db, { ...newDealer('buyer@totals.test'), referredBy: recruiter })).id;
    const before = await ledgerTotals(t.db, {});
    await Promise.all(Array.from({ length: 40 }, (_, i) => earn(recruiter, referred, `${i + 1}.25`)));
    const after = await ledgerTotals(t.db, {});
    expect(after.total - before.total).toBe(40);
    // 1.25 + 2.25 + ... + 40.25 = 830.00
    const cents = (s: string) => BigInt(s.replace('.', ''));
    expect(cents(after.pending) - cents(before.pending)).toBe(83_000n);
    await expectKeptTotalsExact();
  });

  it('are rebuilt from the ledger when migration 0860 is undone and done again', async () => {
    const recruiter = (await insertDealer(t.db, newDealer('again@totals.test'))).id;
    const referred = (await insertDealer(t.db, { ...newDealer('again-buyer@totals.test'), referredBy: recruiter })).id;
    await earn(recruiter, referred, '4.25');
    await earn(recruiter, referred, '-1.25', 'clawback');
    const before = await ledgerTotals(t.db, {});
    await m0860.down(t.db);
    await m0860.up(t.db);
    await expectKeptTotalsExact();
    expect(await ledgerTotals(t.db, {})).toEqual(before);
  });
});
