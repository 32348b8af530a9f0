import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, newDealer, type TestDatabase } from '../testing';
import {
  DEALER_RECORD,
  findAdminById,
  findAdminByUsername,
  findAnyAdmin,
  findDealerCredentials,
  findDealerRecord,
  insertAdmin,
  lockDealerAccount,
  setAdminPassword,
  setDealerPassword,
} from './accounts';
import { insertAuditLog } from './audit-logs';
import { findToken, insertToken, replacePasswordLinks, retireUnusedTokens, useToken } from './magic-link-tokens';

let t: TestDatabase;
let dealerId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  dealerId = (
    await t.db
      .insertInto('dealers')
      .values({ ...newDealer('Mixed.Case@Accounts.test'), status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe(`accounts queries on ${process.env.TEST_DB}`, () => {
  it('finds admins by username whatever the case, and changes their password', async () => {
    await insertAdmin(t.db, 'Root-Admin', 'hash-1');
    const found = await findAdminByUsername(t.db, 'root-ADMIN');
    expect(found).toMatchObject({ username: 'Root-Admin', passwordHash: 'hash-1' });
    await setAdminPassword(t.db, found!.id, 'hash-2');
    expect((await findAdminByUsername(t.db, 'Root-Admin'))?.passwordHash).toBe('hash-2');
    // The session's read of an admin never carries the hash.
    expect(await findAdminById(t.db, found!.id)).toEqual({
      id: found!.id,
      username: 'Root-Admin',
      fullName: expect.any(String),
      email: null,
      role: 'owner',
    });
    expect(await findAnyAdmin(t.db)).toBeDefined();
  });

  it('reads credentials by email whatever the case, and the record only in the given statuses', async () => {
    expect(await findDealerCredentials(t.db, 'mixed.case@accounts.TEST')).toMatchObject({
      id: dealerId,
      status: 'pending',
      password: null,
    });
    expect(await findDealerRecord(t.db, dealerId, ['approved', 'active'])).toBeUndefined();
    const record = await findDealerRecord(t.db, dealerId, ['pending']);
    expect(Object.keys(record ?? {}).sort()).toEqual([...DEALER_RECORD].sort());
  });

  it('sets a password under the row lock and grants access', async () => {
    await t.db.transaction().execute(async (trx) => {
      expect(await lockDealerAccount(trx, dealerId)).toMatchObject({ id: dealerId, status: 'pending' });
      await setDealerPassword(trx, dealerId, 'argon-hash');
    });
    const row = await t.db
      .selectFrom('dealers')
      .select(['password', 'accessGranted'])
      .where('id', '=', dealerId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ password: 'argon-hash', accessGranted: true });
  });
});

describe(`magic-link-tokens queries on ${process.env.TEST_DB}`, () => {
  const issue = (tokenHash: string, purpose: 'setup' | 'reset', expiresAt = new Date(Date.now() + 3_600_000)) =>
    insertToken(t.db, { tokenHash, dealerId, purpose, expiresAt });

  it('uses a token once, of the asked purpose, while it lives', async () => {
    await issue('h-once', 'setup');
    expect(await useToken(t.db, 'h-once', 'reset')).toBeUndefined();
    expect(await useToken(t.db, 'h-once', 'setup')).toEqual({ dealerId, purpose: 'setup' });
    expect(await useToken(t.db, 'h-once')).toBeUndefined();
    expect(await findToken(t.db, 'h-once')).toMatchObject({ purpose: 'setup', used: true });

    await issue('h-old', 'reset', new Date(Date.now() - 1000));
    expect(await useToken(t.db, 'h-old')).toBeUndefined();
    expect(await findToken(t.db, 'h-old')).toMatchObject({ used: false });
    expect(await findToken(t.db, 'h-unknown')).toBeUndefined();
  });

  it('of concurrent uses exactly one wins', async () => {
    await issue('h-race', 'reset');
    const results = await Promise.all([1, 2, 3, 4].map(() => useToken(t.db, 'h-race')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('retires the unused tokens of one purpose, or all of them', async () => {
    await issue('h-s', 'setup');
    await issue('h-r', 'reset');
    await retireUnusedTokens(t.db, dealerId, 'setup');
    expect((await findToken(t.db, 'h-s'))?.used).toBe(true);
    expect((await findToken(t.db, 'h-r'))?.used).toBe(false);
    await retireUnusedTokens(t.db, dealerId);
    expect((await findToken(t.db, 'h-r'))?.used).toBe(true);
  });

  it('an approval retires every live set-up and reset link of its dealers and issues the new ones', async () => {
    await issue('h-old-setup', 'setup');
    await issue('h-old-reset', 'reset');
    await replacePasswordLinks(t.db, [
      { tokenHash: 'h-new-setup', dealerId, expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    expect((await findToken(t.db, 'h-old-setup'))?.used).toBe(true);
    expect((await findToken(t.db, 'h-old-reset'))?.used).toBe(true);
    expect(await findToken(t.db, 'h-new-setup')).toMatchObject({ purpose: 'setup', used: false });
  });
});

describe(`audit-logs queries on ${process.env.TEST_DB}`, () => {
  it('writes a row inside the transaction that makes the change, and nothing when it rolls back', async () => {
    await insertAuditLog(t.db, { eventType: 'test.kept', category: 'system', message: 'kept', details: '{"a":1}' });
    await t.db
      .transaction()
      .execute(async (trx) => {
        await insertAuditLog(trx, { eventType: 'test.dropped', category: 'system', message: 'dropped', details: '{}' });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const rows = await t.db
      .selectFrom('auditLogs')
      .select(['eventType', 'details', 'success'])
      .where('eventType', 'like', 'test.%')
      .execute();
    expect(rows).toEqual([{ eventType: 'test.kept', details: { a: 1 }, success: true }]);
  });
});
