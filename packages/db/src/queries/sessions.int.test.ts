import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, newDealer, type TestDatabase } from '../testing';
import { insertAdmin } from './accounts';
import {
  destroySession,
  endSessionsOfRole,
  endSessionsOfUser,
  pruneExpiredSessions,
  readSessionWithUser,
  saveSession,
} from './sessions';

const SIGN_IN = ['approved', 'active'] as const;
const hour = 3_600_000;
const later = () => new Date(Date.now() + hour);

let t: TestDatabase;
let dealerId: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  const d = await t.db
    .insertInto('dealers')
    .values({ ...newDealer('s@sessions.test'), status: 'approved' })
    .returning('id')
    .executeTakeFirstOrThrow();
  dealerId = d.id;
  await insertAdmin(t.db, 'Sessions-Admin', 'not-a-real-hash');
  adminId = (
    await t.db.selectFrom('admins').select('id').where('username', '=', 'Sessions-Admin').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

const exists = async (sid: string) =>
  Boolean(await t.db.selectFrom('sessions').select('sid').where('sid', '=', sid).executeTakeFirst());

describe(`sessions queries on ${process.env.TEST_DB}`, () => {
  it("reads a dealer's session with the dealer's record, never a hash", async () => {
    await saveSession(t.db, 'sid-dealer', { userId: dealerId, role: 'dealer' }, later(), () => true);
    const read = await readSessionWithUser(t.db, 'sid-dealer', SIGN_IN);
    expect(read?.sess).toEqual({ userId: dealerId, role: 'dealer' });
    expect(read?.admin).toBeNull();
    expect(read?.dealer).toMatchObject({
      id: dealerId,
      email: 's@sessions.test',
      status: 'approved',
      tier: 'Affiliate',
    });
    expect(Object.keys(read?.dealer ?? {})).not.toContain('password');
  });

  it("reads an admin's session with the admin", async () => {
    await saveSession(t.db, 'sid-admin', { userId: adminId, role: 'admin' }, later(), () => true);
    const read = await readSessionWithUser(t.db, 'sid-admin', SIGN_IN);
    expect(read?.dealer).toBeNull();
    expect(read?.admin).toMatchObject({
      id: adminId,
      username: 'Sessions-Admin',
      fullName: expect.any(String),
      email: null,
    });
    expect(read?.admin).not.toHaveProperty('passwordHash');
  });

  it('brings no user when the dealer may not sign in, and no session when it expired or is unknown', async () => {
    await saveSession(t.db, 'sid-other', { userId: dealerId, role: 'dealer' }, later(), () => true);
    const read = await readSessionWithUser(t.db, 'sid-other', ['active']);
    expect(read?.sess).toMatchObject({ userId: dealerId });
    expect(read?.dealer).toBeNull();
    // A role that does not match the id finds nobody.
    await saveSession(t.db, 'sid-mixed', { userId: dealerId, role: 'admin' }, later(), () => true);
    expect((await readSessionWithUser(t.db, 'sid-mixed', SIGN_IN))?.admin).toBeNull();
    await saveSession(
      t.db,
      'sid-expired',
      { userId: dealerId, role: 'dealer' },
      new Date(Date.now() - 1000),
      () => true,
    );
    expect(await readSessionWithUser(t.db, 'sid-expired', SIGN_IN)).toBeUndefined();
    expect(await readSessionWithUser(t.db, 'no-such-sid', SIGN_IN)).toBeUndefined();
  });

  it('updates a row in place, and inserts a missing one only when the caller allows it', async () => {
    await saveSession(t.db, 'sid-save', { n: 1 }, later(), () => true);
    let asked = 0;
    await saveSession(t.db, 'sid-save', { n: 2 }, later(), () => {
      asked++;
      return true;
    });
    // An existing row is updated without asking.
    expect(asked).toBe(0);
    expect((await readSessionWithUser(t.db, 'sid-save', SIGN_IN))?.sess).toEqual({ n: 2 });
    await saveSession(t.db, 'sid-refused', { n: 1 }, later(), () => false);
    expect(await exists('sid-refused')).toBe(false);
  });

  it('destroys one session, ends the sessions of a user except one, and prunes expired rows', async () => {
    const other = crypto.randomUUID();
    for (const sid of ['u1', 'u2', 'u3']) await saveSession(t.db, sid, { userId: other }, later(), () => true);
    await saveSession(t.db, 'not-u', { userId: crypto.randomUUID() }, later(), () => true);
    await destroySession(t.db, 'u1');
    expect(await exists('u1')).toBe(false);
    expect(await endSessionsOfUser(t.db, other, 'u3')).toBe(1);
    expect(await exists('u2')).toBe(false);
    expect(await exists('u3')).toBe(true);
    expect(await endSessionsOfUser(t.db, other)).toBe(1);
    expect(await exists('not-u')).toBe(true);

    await saveSession(t.db, 'role-d', { userId: dealerId, role: 'dealer' }, later(), () => true);
    await saveSession(t.db, 'role-a', { userId: adminId, role: 'admin' }, later(), () => true);
    expect(await endSessionsOfRole(t.db, 'dealer')).toBeGreaterThanOrEqual(1);
    expect(await exists('role-d')).toBe(false);
    expect(await exists('role-a')).toBe(true);

    await saveSession(t.db, 'old', {}, new Date(Date.now() - 1000), () => true);
    expect(await pruneExpiredSessions(t.db)).toBeGreaterThanOrEqual(1);
    expect(await exists('old')).toBe(false);
    expect(await exists('not-u')).toBe(true);
  });
});
