import { type Database, migrateToLatest, openDatabase } from '@dn/db';
import { createEmptyPostgresDatabase } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/lib/password';
import { ensureAdmin } from '../src/services/accounts/admins';

/**
 * Issue 46: instances started together on an empty database each run ensureAdmin. It checked, then
 * inserted: one of them crashed on admins_username_lower_key. Now the insert decides.
 */
let empty: { url: string; drop(): Promise<void> };
let dbs: Database[] = [];
beforeAll(async () => {
  empty = await createEmptyPostgresDatabase();
  dbs = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ databaseUrl: empty.url, poolSize: 2 })));
  await migrateToLatest(dbs[0]!.db);
});
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.close()));
  await empty?.drop();
});

describe('ensureAdmin from instances started together (PostgreSQL)', () => {
  it('with no admin configured: one creates it and prints its password, the others find it', async () => {
    const results = await Promise.all(dbs.map((d) => ensureAdmin(d.db, {})));
    const created = results.filter((r) => r.action === 'created');
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.action === 'kept')).toHaveLength(3);
    expect(results.every((r) => r.username === 'admin')).toBe(true);
    expect(results.filter((r) => r.generatedPassword)).toHaveLength(1);
    const rows = await dbs[0]!.db.selectFrom('admins').select(['username', 'passwordHash']).execute();
    expect(rows).toHaveLength(1);
    // The password printed is the one stored (no other instance overwrote it).
    expect(await verifyPassword(rows[0]!.passwordHash, created[0]!.generatedPassword!)).toBe(true);
    await dbs[0]!.db.deleteFrom('admins').execute();
  });

  it('with ADMIN_USERNAME/ADMIN_PASSWORD: one creates it, the others keep it', async () => {
    const results = await Promise.all(
      dbs.map((d) => ensureAdmin(d.db, { username: 'start-owner', password: 'start-owner-password-1' })),
    );
    expect(results.map((r) => r.action).sort()).toEqual(['created', 'kept', 'kept', 'kept']);
    expect(await dbs[0]!.db.selectFrom('admins').select('username').execute()).toEqual([{ username: 'start-owner' }]);
  });
});
