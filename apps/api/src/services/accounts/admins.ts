import { randomBytes } from 'node:crypto';
import type { DB, Kysely } from '@dn/db';
import {
  findAdminByUsername,
  findAnyAdmin,
  insertAdmin,
  insertAdminIfAbsent,
  setAdminPassword,
} from '@dn/db/queries/accounts';
import { endSessionsOfUser } from '@dn/db/queries/sessions';
import { hashPassword } from '../../lib/password';

/**
 * Admins live in their own table, apart from dealers (docs/decisions/0002-admin-accounts.md).
 * Creates the admin or updates its password; an updated password ends its other sessions.
 */
export async function upsertAdmin(db: Kysely<DB>, username: string, password: string): Promise<'created' | 'updated'> {
  const passwordHash = await hashPassword(password);
  const existing = await findAdminByUsername(db, username);
  if (existing) {
    await setAdminPassword(db, existing.id, passwordHash);
    await endSessionsOfUser(db, existing.id);
    return 'updated';
  }
  await insertAdmin(db, username, passwordHash);
  return 'created';
}

/**
 * At start: ADMIN_USERNAME/ADMIN_PASSWORD create that admin once; an existing admin's password
 * is never overwritten (issue 12: a restart must not undo a password changed since; changing it
 * goes through `pnpm admin:create` or the UI). Without them, and with no admin at all, an
 * 'admin' account with a random password is created and the password returned once, to be printed.
 */
export async function ensureAdmin(
  db: Kysely<DB>,
  configured: { username?: string | undefined; password?: string | undefined },
): Promise<{ username: string; generatedPassword?: string; action: 'created' | 'kept' }> {
  // Instances starting together on an empty database (issue 46): each may find no admin, so the
  // insert itself decides (on conflict do nothing); the ones that lose find the winner's admin.
  if (configured.username && configured.password) {
    if (await findAdminByUsername(db, configured.username)) return { username: configured.username, action: 'kept' };
    const created = await insertAdminIfAbsent(db, configured.username, await hashPassword(configured.password));
    return { username: configured.username, action: created ? 'created' : 'kept' };
  }
  const any = await findAnyAdmin(db);
  if (any) return { username: any.username, action: 'kept' };
  const generatedPassword = randomBytes(12).toString('base64url');
  if (await insertAdminIfAbsent(db, 'admin', await hashPassword(generatedPassword)))
    return { username: 'admin', generatedPassword, action: 'created' };
  // Another instance created it a moment ago: its password is the one printed (by it).
  const winner = await findAnyAdmin(db);
  return { username: winner?.username ?? 'admin', action: 'kept' };
}
