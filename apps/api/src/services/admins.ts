import { randomBytes } from 'node:crypto';
import { type DB, type Kysely, sql } from '@dn/db';
import { hashPassword, verifyPassword } from '../lib/password';
import { endSessionsOfUser } from '../plugins/session';

/**
 * Admins live in their own table, apart from dealers (docs/decisions/0002-admin-accounts.md).
 * Creates the admin or updates its password; an updated password ends its other sessions.
 */
export async function upsertAdmin(db: Kysely<DB>, username: string, password: string): Promise<'created' | 'updated'> {
  const passwordHash = await hashPassword(password);
  const existing = await db
    .selectFrom('admins')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  if (existing) {
    await db.updateTable('admins').set({ passwordHash, updatedAt: new Date() }).where('id', '=', existing.id).execute();
    await endSessionsOfUser(db, existing.id);
    return 'updated';
  }
  await db.insertInto('admins').values({ username, passwordHash, updatedAt: new Date() }).execute();
  return 'created';
}

/**
 * At start: ADMIN_USERNAME/ADMIN_PASSWORD create or update that admin. Without them, and with
 * no admin at all, an 'admin' account with a random password is created and the password
 * returned once, to be printed.
 */
export async function ensureAdmin(
  db: Kysely<DB>,
  configured: { username?: string | undefined; password?: string | undefined },
): Promise<{ username: string; generatedPassword?: string; action: 'created' | 'updated' | 'kept' }> {
  if (configured.username && configured.password) {
    const existing = await db
      .selectFrom('admins')
      .select('passwordHash')
      .where(sql`lower(username)`, '=', configured.username.toLowerCase())
      .executeTakeFirst();
    if (existing) {
      if (await verifyPassword(existing.passwordHash, configured.password)) {
        return { username: configured.username, action: 'kept' };
      }
    }
    return { username: configured.username, action: await upsertAdmin(db, configured.username, configured.password) };
  }
  const any = await db.selectFrom('admins').select('username').limit(1).executeTakeFirst();
  if (any) return { username: any.username, action: 'kept' };
  const generatedPassword = randomBytes(12).toString('base64url');
  await upsertAdmin(db, 'admin', generatedPassword);
  return { username: 'admin', generatedPassword, action: 'created' };
}
