import { sql } from '@dn/db';
import nacha from '@midlandsbank/node-nacha';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring, newKey, open, sealedWith } from '../src/lib/vault';
import { rotateKeys } from '../src/services/payees/rotate';
import {
  appLoggingTo,
  createDealer,
  createHarness,
  type Harness,
  signInAdmin,
  signInDealer,
  TEST_DATA_KEY,
  type TestApp,
} from './helpers';
import { PAYMENT_SETTINGS, referredPair, setRuleForEveryTier } from './partner-fixtures';

/**
 * Issue 39: payout details and W-9 sealed at rest, batches that can be paid (held payees, one
 * reminder), the NACHA file read by an independent reader and a second package, the check
 * register, returns, the 1099-NEC report, the statement, and nothing in plain text anywhere.
 */

let h: Harness;
let app: TestApp;
const logs: string[] = [];
/** Every response body but the two files allowed to carry full numbers (bank file, tax report). */
const bodies: string[] = [];
const cookies: Record<'owner' | 'reviewer' | 'viewer', string> = { owner: '', reviewer: '', viewer: '' };

const TIN = '523-45-6781';
const TIN_DIGITS = '523456781';
const ACCOUNT = '7391846205';
const ROUTING = '021000021';

beforeAll(async () => {
  h = await createHarness();
  app = await appLoggingTo(h.database, logs);
  for (const role of ['owner', 'reviewer', 'viewer'] as const) {
    const username = `payees-${role}`;
    cookies[role] = await signInAdmin(app, username);
    await h.db.updateTable('admins').set({ role }).where('username', '=', username).execute();
  }
  await setRuleForEveryTier(h, cookies.owner, { type: 'fixed', value: '60.00', appliesTo: 'all', holdDays: 0 });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await h?.close();
});

async function call(method: 'GET' | 'PUT' | 'POST', url: string, cookie: string, payload?: unknown, keep = true) {
  const res: LightMyRequestResponse = await app.inject({
    method,
    url,
    headers: { cookie, 'user-agent': 'payee-test/1.0' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (keep) bodies.push(res.body);
  return res;
}

const profile = (over: Record<string, unknown> = {}) => ({
  legalName: 'Rita Recruiter',
  taxClassification: 'individual',
  tin: TIN,
  address: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
  method: 'ach',
  routingNumber: ROUTING,
  accountNumber: ACCOUNT,
  accountType: 'checking',
  certify: true,
  ...over,
});

const SETTINGS = PAYMENT_SETTINGS;

/** Approves every pending commission (as the owner). */
async function approveAll() {
  const pending = await h.db.selectFrom('commissions').select('id').where('status', '=', 'pending').execute();
  if (pending.length === 0) return;
  const res = await call('POST', '/api/admin/commissions/approve', cookies.owner, { ids: pending.map((p) => p.id) });
  expect(res.statusCode, res.body).toBe(200);
}

async function order(dealerId: string, amount = '500.00') {
  const res = await call('POST', `/api/admin/dealers/${dealerId}/orders`, cookies.owner, {
    orderId: `ord-${Math.random().toString(36).slice(2, 10)}`,
    amount,
    orderedAt: new Date(Date.now() - 60_000).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** An independent reading of a NACHA file: structure, counts, hashes and totals (in cents). */
function readNacha(text: string) {
  const lines = text.split('\r\n').filter((l) => l.length > 0);
  expect(text.endsWith('\r\n')).toBe(true);
  for (const l of lines) expect(l.length, JSON.stringify(l)).toBe(94);
  expect(lines.length % 10).toBe(0);
  const fill = lines.filter((l) => /^9{94}$/.test(l));
  const records = lines.slice(0, lines.length - fill.length);
  expect(records[0]!.startsWith('101')).toBe(true);
  const fileControl = records.at(-1)!;
  expect(fileControl[0]).toBe('9');
  const entries: { code: string; routing: string; account: string; cents: bigint; name: string; sec: string }[] = [];
  let batches = 0;
  let sec = '';
  let batchEntries: typeof entries = [];
  for (const r of records.slice(1, -1)) {
    if (r[0] === '5') {
      batches++;
      sec = r.slice(50, 53);
      batchEntries = [];
    } else if (r[0] === '6') {
      const e = {
        code: r.slice(1, 3),
        routing: r.slice(3, 12),
        account: r.slice(12, 29).trim(),
        cents: BigInt(r.slice(29, 39)),
        name: r.slice(54, 76).trim(),
        sec,
      };
      entries.push(e);
      batchEntries.push(e);
      expect(r.slice(79, 87), 'trace number starts with the ODFI').toBe(SETTINGS.originatingRouting.slice(0, 8));
    } else if (r[0] === '8') {
      expect(Number(r.slice(4, 10))).toBe(batchEntries.length);
      const hash = batchEntries.reduce((t, e) => t + BigInt(e.routing.slice(0, 8)), 0n) % 10_000_000_000n;
      expect(BigInt(r.slice(10, 20))).toBe(hash);
      expect(BigInt(r.slice(20, 32)), 'batch debits').toBe(0n);
      expect(BigInt(r.slice(32, 44))).toBe(batchEntries.reduce((t, e) => t + e.cents, 0n));
    } else throw new Error(`unexpected record ${r.slice(0, 3)}`);
  }
  expect(Number(fileControl.slice(1, 7))).toBe(batches);
  expect(Number(fileControl.slice(7, 13))).toBe(lines.length / 10);
  expect(Number(fileControl.slice(13, 21))).toBe(entries.length);
  const hash = entries.reduce((t, e) => t + BigInt(e.routing.slice(0, 8)), 0n) % 10_000_000_000n;
  expect(BigInt(fileControl.slice(21, 31))).toBe(hash);
  expect(BigInt(fileControl.slice(31, 43))).toBe(0n);
  const total = entries.reduce((t, e) => t + e.cents, 0n);
  expect(BigInt(fileControl.slice(43, 55))).toBe(total);
  return { entries, total, batches };
}

describe('payout details and the W-9', () => {
  it('refuses the anonymous, a bad routing number (400 naming routingNumber) and a missing certification, storing nothing', async () => {
    const d = await createDealer(h.db, { status: 'active' });
    const cookie = await signInDealer(app, d.email);
    expect((await call('GET', '/api/dealer/payout-profile', '')).statusCode).toBe(401);
    expect((await call('PUT', '/api/dealer/payout-profile', '', profile())).statusCode).toBe(401);
    expect((await call('PUT', '/api/dealer/payout-profile', cookies.owner, profile())).statusCode).toBe(403);
    const bad = await call('PUT', '/api/dealer/payout-profile', cookie, profile({ routingNumber: '021000022' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('routingNumber');
    expect(bad.body).toContain('ABA checksum');
    for (const over of [
      { certify: false },
      { tin: '000-12-3456' },
      { tin: '12345' },
      { taxClassification: 'llc' },
      { method: 'ach', accountNumber: undefined },
      { address: { street: '', city: 'Austin', state: 'TX', zipCode: '78701' } },
      { signature: 'Somebody Else' },
    ]) {
      const res = await call('PUT', '/api/dealer/payout-profile', cookie, profile(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
    }
    expect(await h.db.selectFrom('payoutProfiles').select('dealerId').where('dealerId', '=', d.id).execute()).toEqual(
      [],
    );
    const none = await call('GET', '/api/dealer/payout-profile', cookie);
    expect(none.json()).toMatchObject({ complete: false });
  });

  it('saves ACH details and the signature (time, IP, user agent, version); GET shows only the last 4', async () => {
    const d = await createDealer(h.db, { status: 'active' });
    const cookie = await signInDealer(app, d.email);
    const put = await call('PUT', '/api/dealer/payout-profile', cookie, profile({ routingNumber: '021-000-021' }));
    expect(put.statusCode, put.body).toBe(200);
    const got = (await call('GET', '/api/dealer/payout-profile', cookie)).json();
    expect(got).toMatchObject({
      legalName: 'Rita Recruiter',
      taxClassification: 'individual',
      tinType: 'ssn',
      tinLast4: '6781',
      accountLast4: '6205',
      routingNumber: ROUTING,
      accountType: 'checking',
      method: 'ach',
      complete: true,
      certificationVersion: 'w9-2024-03',
    });
    const row = await h.db
      .selectFrom('payoutProfiles')
      .selectAll()
      .where('dealerId', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.certifiedUa).toBe('payee-test/1.0');
    expect(row.certifiedIp).toBeTruthy();
    expect(row.certifiedName).toBe('Rita Recruiter');
    expect(open(keyring(TEST_DATA_KEY), row.tinEnc)).toBe(TIN_DIGITS);
    expect(open(keyring(TEST_DATA_KEY), row.accountEnc!)).toBe(ACCOUNT);
    expect(sealedWith(row.tinEnc)).toBe(keyring(TEST_DATA_KEY).current.id);
  });
});

describe('payment settings and the tax threshold', () => {
  it('owner only; bad input is a 400 naming the field and stores nothing', async () => {
    expect((await call('PUT', '/api/admin/payment-settings', cookies.reviewer, SETTINGS)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/payment-settings', cookies.viewer)).statusCode).toBe(403);
    const bad = await call('PUT', '/api/admin/payment-settings', cookies.owner, {
      ...SETTINGS,
      originatingRouting: '011000016',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('originatingRouting');
    expect(await h.db.selectFrom('paymentSettings').selectAll().execute()).toEqual([]);
    const ok = await call('PUT', '/api/admin/payment-settings', cookies.owner, SETTINGS);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call('GET', '/api/admin/payment-settings', cookies.owner)).json()).toMatchObject({
      companyId: '1123456789',
    });

    expect((await call('GET', '/api/admin/tax/thresholds/2025', cookies.viewer)).json()).toMatchObject({
      amount: '600.00',
    });
    expect((await call('GET', '/api/admin/tax/thresholds/2026', cookies.viewer)).json()).toMatchObject({
      amount: '2000.00',
    });
    expect(
      (await call('PUT', '/api/admin/tax/thresholds/2027', cookies.reviewer, { amount: '2100.00' })).statusCode,
    ).toBe(403);
    expect((await call('PUT', '/api/admin/tax/thresholds/2027', cookies.owner, { amount: 'lots' })).statusCode).toBe(
      400,
    );
    const set = await call('PUT', '/api/admin/tax/thresholds/2027', cookies.owner, { amount: '2100.00' });
    expect(set.json()).toMatchObject({ year: 2027, amount: '2100.00', setByOwner: true });
  });
});

describe('a batch that can be paid', () => {
  let payoutId = '';
  let ready: { recruiter: { id: string; email: string }; dealer: { id: string } };
  let business: { recruiter: { id: string; email: string }; dealer: { id: string } };
  let checkPayee: { recruiter: { id: string; email: string }; dealer: { id: string } };
  let missing: { recruiter: { id: string; email: string }; dealer: { id: string } };

  it('pays only recruiters with complete details; the others are held with the reason and emailed once', async () => {
    ready = await referredPair(h);
    business = await referredPair(h);
    checkPayee = await referredPair(h);
    missing = await referredPair(h);
    // The fixtures give every recruiter details: this one has none; the others save theirs.
    await h.db
      .deleteFrom('payoutProfiles')
      .where('dealerId', 'in', [
        missing.recruiter.id,
        ready.recruiter.id,
        business.recruiter.id,
        checkPayee.recruiter.id,
      ])
      .execute();
    const save = async (id: string, email: string, over: Record<string, unknown>) => {
      const res = await call('PUT', '/api/dealer/payout-profile', await signInDealer(app, email), profile(over));
      expect(res.statusCode, res.body).toBe(200);
      void id;
    };
    await save(ready.recruiter.id, ready.recruiter.email, {});
    await save(business.recruiter.id, business.recruiter.email, {
      legalName: 'Acme Solar LLC',
      taxClassification: 'llc_s',
      tin: '12-3456780',
      accountNumber: '55501234',
      accountType: 'savings',
      routingNumber: '011000015',
    });
    await save(checkPayee.recruiter.id, checkPayee.recruiter.email, {
      legalName: 'Carl Check',
      tin: '521-43-6790',
      method: 'check',
      routingNumber: undefined,
      accountNumber: undefined,
      accountType: undefined,
    });
    for (const p of [ready, business, checkPayee, missing]) await order(p.dealer.id);
    await approveAll();

    expect((await call('POST', '/api/admin/payouts', cookies.reviewer, {})).statusCode).toBe(403);
    const res = await call('POST', '/api/admin/payouts', cookies.owner, { minimum: '10.00' });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json();
    payoutId = batch.id;
    expect(batch.recruiterCount).toBe(3);
    expect(batch.total).toBe('180.00');
    expect(batch.held).toEqual([
      expect.objectContaining({ recruiterId: missing.recruiter.id, reason: 'payout details and W-9 missing' }),
    ]);
    // Kept with the batch: the console's batch view lists them later.
    const listed = (await call('GET', '/api/admin/payouts', cookies.viewer)).json() as {
      id: string;
      held: unknown[];
    }[];
    expect(listed.find((p) => p.id === payoutId)?.held).toEqual([
      expect.objectContaining({ recruiterId: missing.recruiter.id, reason: 'payout details and W-9 missing' }),
    ]);
    const mails = () =>
      h.db
        .selectFrom('emailOutbox')
        .select(['kind', 'textBody'])
        .where('dealerId', '=', missing.recruiter.id)
        .where('kind', '=', 'payout_details_needed')
        .execute();
    const first = await mails();
    expect(first).toHaveLength(1);
    expect(first[0]!.textBody).toContain('https://dealers.test/dashboard?tab=payouts');
    // Another batch: still held, not emailed again.
    const again = await call('POST', '/api/admin/payouts', cookies.owner, { minimum: '10.00' });
    expect(again.statusCode).toBe(409);
    await order(ready.dealer.id);
    await approveAll();
    const third = await call('POST', '/api/admin/payouts', cookies.owner, { minimum: '10.00' });
    expect(third.statusCode, third.body).toBe(200);
    expect(third.json().held.map((x: { recruiterId: string }) => x.recruiterId)).toEqual([missing.recruiter.id]);
    expect(await mails()).toHaveLength(1);
  });

  it('the NACHA file: owner only, audited, read by an independent reader and a second package', async () => {
    for (const who of ['reviewer', 'viewer'] as const) {
      expect((await call('GET', `/api/admin/payouts/${payoutId}/ach`, cookies[who])).statusCode).toBe(403);
      expect((await call('GET', '/api/admin/tax/1099-nec?year=2026', cookies[who])).statusCode).toBe(403);
    }
    expect((await call('GET', `/api/admin/payouts/${payoutId}/ach`, '')).statusCode).toBe(401);
    const dealerCookie = await signInDealer(app, ready.recruiter.email);
    expect((await call('GET', `/api/admin/payouts/${payoutId}/ach`, dealerCookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/payouts/nope/ach', cookies.owner)).statusCode).toBe(400);
    expect(
      (await call('GET', '/api/admin/payouts/00000000-0000-4000-8000-000000000000/ach', cookies.owner)).statusCode,
    ).toBe(404);

    const res = await call('GET', `/api/admin/payouts/${payoutId}/ach`, cookies.owner, undefined, false);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const { entries, total, batches } = readNacha(res.body);
    expect(batches).toBe(2);
    expect(total).toBe(12000n);
    expect(entries.map((e) => [e.sec, e.code, e.account, e.cents]).sort()).toEqual(
      [
        ['CCD', '32', '55501234', 6000n],
        ['PPD', '22', ACCOUNT, 6000n],
      ].sort(),
    );
    const parsed = nacha.from(res.body).data as {
      file: { footer: { totalCredit: number; entryAndAddendaCount: number; batchCount: number } };
      batches: { entryClassCode: string; entries: { dfiAccount: string; amount: number }[] }[];
    };
    expect(parsed.file.footer).toMatchObject({ totalCredit: 12000, entryAndAddendaCount: 2, batchCount: 2 });
    expect(parsed.batches.map((b) => b.entryClassCode).sort()).toEqual(['CCD', 'PPD']);

    const checks = await call('GET', `/api/admin/payouts/${payoutId}/checks`, cookies.owner);
    expect(checks.statusCode).toBe(200);
    expect(checks.body).toContain('Carl Check');
    expect(checks.body).toContain('60.00');
    expect((await call('GET', `/api/admin/payouts/${payoutId}/checks`, cookies.reviewer)).statusCode).toBe(403);
    const audits = await h.db
      .selectFrom('auditLogs')
      .select(['eventType', 'message', 'createdAt'])
      .where('eventType', 'in', ['payout.ach_downloaded', 'payout.checks_downloaded'])
      .execute();
    expect(audits.map((a) => a.eventType).sort()).toEqual(['payout.ach_downloaded', 'payout.checks_downloaded']);
    expect(audits.every((a) => a.message.startsWith('payees-owner downloaded') && a.createdAt instanceof Date)).toBe(
      true,
    );
  });

  it('marked paid: the statement shows it; a return puts it back to approved, emails, and holds the payee until fixed', async () => {
    const paid = await call('POST', `/api/admin/payouts/${payoutId}/paid`, cookies.owner, { reference: 'ACH-1' });
    expect(paid.statusCode, paid.body).toBe(200);
    const cookie = await signInDealer(app, ready.recruiter.email);
    const year = new Date().getUTCFullYear();
    const st = (await call('GET', `/api/dealer/statement?year=${year}`, cookie)).json();
    expect(st).toMatchObject({ year, total: '60.00', payments: [{ payoutId, reference: 'ACH-1', amount: '60.00' }] });
    const csv = await call('GET', `/api/dealer/statement/download?year=${year}`, cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('ACH-1');
    expect((await call('GET', `/api/dealer/statement?year=${year}`, '')).statusCode).toBe(401);
    expect((await call('GET', '/api/dealer/statement?year=99', cookie)).statusCode).toBe(400);

    const url = `/api/admin/payouts/${payoutId}/returns`;
    const body = { recruiterId: business.recruiter.id, returnCode: 'R03', note: 'No account' };
    expect((await call('POST', url, cookies.reviewer, body)).statusCode).toBe(403);
    expect((await call('POST', url, cookies.owner, { ...body, returnCode: 'X1' })).statusCode).toBe(400);
    expect((await call('POST', url, cookies.owner, { ...body, recruiterId: missing.recruiter.id })).statusCode).toBe(
      404,
    );
    expect(await h.db.selectFrom('payoutReturns').selectAll().execute()).toEqual([]);
    const ret = await call('POST', url, cookies.owner, body);
    expect(ret.statusCode, ret.body).toBe(200);
    expect(ret.json()).toMatchObject({ returnCode: 'R03', amount: '60.00', commissions: 1 });
    expect((await call('POST', url, cookies.owner, body)).statusCode).toBe(404);
    const entries = await h.db
      .selectFrom('commissions')
      .select(['status', 'payoutId', 'paidAt'])
      .where('recruiterDealerId', '=', business.recruiter.id)
      .execute();
    expect(entries).toEqual([{ status: 'approved', payoutId: null, paidAt: null }]);
    const mail = await h.db
      .selectFrom('emailOutbox')
      .select('kind')
      .where('dealerId', '=', business.recruiter.id)
      .where('kind', '=', 'payment_returned')
      .execute();
    expect(mail).toHaveLength(1);
    const bcookie = await signInDealer(app, business.recruiter.email);
    expect((await call('GET', '/api/dealer/payout-profile', bcookie)).json()).toMatchObject({ complete: false });
    await order(checkPayee.dealer.id);
    await approveAll();
    const next = await call('POST', '/api/admin/payouts', cookies.owner, { minimum: '10.00' });
    expect(
      next
        .json()
        .held.map((x: { recruiterId: string }) => x.recruiterId)
        .sort(),
    ).toEqual([business.recruiter.id, missing.recruiter.id].sort());
  });

  it('the 1099-NEC report: payees at or over the year threshold, full TIN, owner only', async () => {
    const year = new Date().getUTCFullYear();
    await call('PUT', `/api/admin/tax/thresholds/${year}`, cookies.owner, { amount: '50.00' });
    expect((await call('GET', '/api/admin/tax/1099-nec?year=abc', cookies.owner)).statusCode).toBe(400);
    const res = await call('GET', `/api/admin/tax/1099-nec?year=${year}`, cookies.owner, undefined, false);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Payer Name');
    expect(res.body).toContain(TIN);
    expect(res.body).toContain('Carl Check');
    expect(res.body).not.toContain('Acme Solar'); // returned: not paid
    await call('PUT', `/api/admin/tax/thresholds/${year}`, cookies.owner, { amount: '1000.00' });
    const none = await call('GET', `/api/admin/tax/1099-nec?year=${year}`, cookies.owner, undefined, false);
    expect(none.body.trim().split('\n')).toHaveLength(1);
  });

  it('no TIN or account number in plain text in the database, the logs or any response', async () => {
    const tables = await sql<{ t: string }>`select table_name as t from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(h.db);
    let dump = '';
    for (const { t } of tables.rows) {
      const rows = await sql<{ r: string }>`select x::text as r from ${sql.table(t)} x`.execute(h.db);
      dump += rows.rows.map((r) => r.r).join('\n');
    }
    expect(dump.length).toBeGreaterThan(1000);
    expect(dump).toContain('6781'); // the last 4 are there, and the search works
    const secrets = [TIN, TIN_DIGITS, '12-3456780', '123456780', ACCOUNT, '55501234', '521-43-6790', '521436790'];
    const haystacks = { database: dump, logs: logs.join('\n'), responses: bodies.join('\n') };
    expect(logs.length).toBeGreaterThan(10);
    for (const [where, text] of Object.entries(haystacks))
      for (const s of secrets) expect(text.includes(s), `${s} in ${where}`).toBe(false);
  });
});

describe('risk: a shared TIN or bank account', () => {
  it('flags the referral and holds its commissions; clear makes them payable, void never pays', async () => {
    const a = await referredPair(h);
    const b = await referredPair(h);
    for (const p of [a, b]) await h.db.deleteFrom('payoutProfiles').where('dealerId', '=', p.recruiter.id).execute();
    for (const [i, p] of [a, b].entries()) {
      await order(p.dealer.id);
      const sharedTin = {
        tin: `521-11-222${i}`,
        accountNumber: undefined,
        routingNumber: undefined,
        accountType: undefined,
        method: 'check',
      };
      const rc = await signInDealer(app, p.recruiter.email);
      expect((await call('PUT', '/api/dealer/payout-profile', rc, profile(sharedTin))).statusCode).toBe(200);
      const dc = await signInDealer(app, p.dealer.email);
      expect((await call('PUT', '/api/dealer/payout-profile', dc, profile(sharedTin))).statusCode).toBe(200);
    }
    const list = await call('GET', '/api/admin/risk?status=open', cookies.reviewer);
    expect(list.statusCode).toBe(200);
    const flags = list.json() as {
      id: string;
      signals: string[];
      reason: string;
      referred: { id: string };
      held: { count: number };
    }[];
    const flagOf = (id: string) => flags.find((f) => f.referred.id === id)!;
    expect(flagOf(a.dealer.id)).toMatchObject({ signals: ['shared_tin'], held: { count: 1 } });
    expect(flagOf(a.dealer.id).reason).toContain('their recruiter');
    expect((await call('GET', '/api/admin/risk?status=bogus', cookies.owner)).statusCode).toBe(400);
    expect(
      (await call('POST', `/api/admin/risk/${flagOf(a.dealer.id).id}/clear`, cookies.reviewer, { reason: 'ok' }))
        .statusCode,
    ).toBe(403);
    expect((await call('POST', `/api/admin/risk/${flagOf(a.dealer.id).id}/clear`, cookies.owner, {})).statusCode).toBe(
      400,
    );
    const status = async (id: string) =>
      (
        await h.db
          .selectFrom('commissions')
          .select('status')
          .where('referredDealerId', '=', id)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await status(a.dealer.id)).toBe('held');

    const cleared = await call('POST', `/api/admin/risk/${flagOf(a.dealer.id).id}/clear`, cookies.owner, {
      reason: 'Spouses, verified',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await status(a.dealer.id)).toBe('pending');
    const voided = await call('POST', `/api/admin/risk/${flagOf(b.dealer.id).id}/void`, cookies.owner, {
      reason: 'Self-dealing',
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await status(b.dealer.id)).toBe('voided');
    const audit = await h.db
      .selectFrom('auditLogs')
      .select(['details'])
      .where('eventType', '=', 'referral.flag_cleared')
      .execute();
    expect(JSON.stringify(audit)).toContain('Spouses, verified');
  });
});

describe('risk: a referred dealer signing up with the recruiter phone', () => {
  it('is flagged with the evidence; the first order is held; clear -> payable, void -> never paid', async () => {
    const PHONE = '+15125550177';
    const signup = async () => {
      const r = await createDealer(h.db, { status: 'active' });
      await h.db.updateTable('dealers').set({ phoneE164: PHONE }).where('id', '=', r.id).execute();
      const cookie = await signInDealer(app, r.email);
      const recruiterId = `rk${Math.random().toString(36).slice(2, 12)}`;
      expect((await call('POST', '/api/affiliate/create-link', cookie, { recruiterId })).statusCode).toBe(200);
      const email = `phone.${Math.random().toString(36).slice(2, 10)}@example.com`;
      const res = await app.inject({
        method: 'POST',
        url: '/api/dealer-signup',
        remoteAddress: `10.77.${Math.floor(Math.random() * 250)}.9`,
        payload: {
          tier: 'Affiliate',
          fullName: 'Phone Twin',
          companyName: 'Twin Co',
          email,
          phoneE164: PHONE,
          addressJson: { street: '5 Elm St', city: 'Dallas', state: 'TX', zipCode: '75201' },
          referredBy: 'none',
          recruiterId,
          onboardingCallOk: true,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const d = await h.db.selectFrom('dealers').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      await h.db
        .updateTable('dealers')
        .set({ status: 'approved', approvalDate: new Date(Date.now() - 86_400_000) })
        .where('id', '=', d.id)
        .execute();
      await order(d.id);
      return d.id;
    };
    const cleared = await signup();
    const voided = await signup();
    const open = (await call('GET', '/api/admin/risk?status=open', cookies.viewer)).statusCode;
    expect(open).toBe(403);
    const flags = (await call('GET', '/api/admin/risk?status=open', cookies.owner)).json() as {
      id: string;
      signals: string[];
      referred: { id: string };
      held: { count: number; amount: string };
    }[];
    const flagOf = (id: string) => flags.find((f) => f.referred.id === id)!;
    expect(flagOf(cleared)).toMatchObject({ signals: ['phone'], held: { count: 1, amount: '60.00' } });
    const commission = async (id: string) =>
      h.db
        .selectFrom('commissions')
        .select(['id', 'status'])
        .where('referredDealerId', '=', id)
        .executeTakeFirstOrThrow();
    expect((await commission(cleared)).status).toBe('held');

    expect(
      (
        await call('POST', `/api/admin/risk/${flagOf(cleared).id}/clear`, cookies.owner, {
          reason: 'Same household, verified',
        })
      ).statusCode,
    ).toBe(200);
    await approveAll();
    expect((await commission(cleared)).status).toBe('approved');
    expect(
      (await call('POST', `/api/admin/risk/${flagOf(voided).id}/void`, cookies.owner, { reason: 'Self-referral' }))
        .statusCode,
    ).toBe(200);
    expect((await commission(voided)).status).toBe('voided');
    expect(
      (await call('POST', `/api/admin/risk/${flagOf(voided).id}/clear`, cookies.owner, { reason: 'again' })).statusCode,
    ).toBe(409);
    const decided = (await call('GET', '/api/admin/risk?status=voided', cookies.reviewer)).json() as { id: string }[];
    expect(decided.map((f) => f.id)).toContain(flagOf(voided).id);
    // The old routes of issue 35 answer as before.
    expect(
      (await call('POST', `/api/admin/referral-flags/${flagOf(cleared).id}/void`, cookies.owner, {})).statusCode,
    ).toBe(409);
  });
});

describe('key rotation', () => {
  it('re-encrypts every value with the new key; the old key then opens none', async () => {
    const old = keyring(TEST_DATA_KEY);
    const fresh = newKey();
    const before = await h.db.selectFrom('payoutProfiles').select(['dealerId', 'tinEnc', 'accountEnc']).execute();
    expect(before.length).toBeGreaterThan(3);
    const plain = new Map(
      before.map((r) => [r.dealerId, [open(old, r.tinEnc), r.accountEnc && open(old, r.accountEnc)]]),
    );
    const done = await rotateKeys(h.db, keyring(fresh, [TEST_DATA_KEY]));
    expect(done.profiles).toBe(before.length);
    const after = await h.db.selectFrom('payoutProfiles').select(['dealerId', 'tinEnc', 'accountEnc']).execute();
    const next = keyring(fresh);
    for (const r of after) {
      for (const v of [r.tinEnc, r.accountEnc]) {
        if (v === null) continue;
        expect(sealedWith(v)).toBe(next.current.id);
        expect(() => open(old, v)).toThrow();
      }
      expect([open(next, r.tinEnc), r.accountEnc && open(next, r.accountEnc)]).toEqual(plain.get(r.dealerId));
    }
  });
});
