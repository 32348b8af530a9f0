import type { Executor } from './executor';

/**
 * The only writer of `account_devices` (decision 0630, issue 35 finding 3): the device cookies a
 * sign-in set, one row per browser and account, keyed by the SHA-256 of the cookie's random id.
 */

/** Whose devices: a dealer's or an admin's. */
export type DeviceOwner = { dealerId: string } | { adminId: string };

const ownerColumn = (o: DeviceOwner) => ('dealerId' in o ? 'dealerId' : 'adminId') as 'dealerId' | 'adminId';
const ownerId = (o: DeviceOwner) => ('dealerId' in o ? o.dealerId : o.adminId);

/** Whether a cookie is a known device of `account`: its row is there, for that account, used since `usedSince`. */
export async function isKnownDevice(db: Executor, idHash: string, account: string, usedSince: Date): Promise<boolean> {
  const row = await db
    .selectFrom('accountDevices')
    .select('idHash')
    .where('idHash', '=', idHash)
    .where('account', '=', account)
    .where('lastUsedAt', '>', usedSince)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records (or marks used) a device of an account, then drops the account's least recently used
 * devices past `keep`. Returns how many were dropped.
 */
export async function recordDevice(
  db: Executor,
  d: { idHash: string; account: string; owner: DeviceOwner; device: string },
  keep: number,
): Promise<number> {
  const column = ownerColumn(d.owner);
  const id = ownerId(d.owner);
  await db
    .insertInto('accountDevices')
    .values({ idHash: d.idHash, account: d.account, [column]: id, device: d.device })
    .onConflict((oc) => oc.column('idHash').doUpdateSet({ lastUsedAt: new Date(), device: d.device }))
    .execute();
  const r = await db
    .deleteFrom('accountDevices')
    .where(column, '=', id)
    .where('idHash', 'not in', (eb) =>
      eb
        .selectFrom('accountDevices')
        .select('idHash')
        .where(column, '=', id)
        .orderBy('lastUsedAt', 'desc')
        .orderBy('createdAt', 'desc')
        .limit(keep),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** An account's devices, most recently used first. */
export function listDevices(db: Executor, owner: DeviceOwner) {
  return db
    .selectFrom('accountDevices')
    .select(['idHash', 'device', 'createdAt', 'lastUsedAt'])
    .where(ownerColumn(owner), '=', ownerId(owner))
    .orderBy('lastUsedAt', 'desc')
    .execute();
}

/** Revokes an account's devices, but the one whose hash is given (the caller's own); returns how many. */
export async function revokeDevices(db: Executor, owner: DeviceOwner, keepIdHash: string | null): Promise<number> {
  let q = db.deleteFrom('accountDevices').where(ownerColumn(owner), '=', ownerId(owner));
  if (keepIdHash) q = q.where('idHash', '<>', keepIdHash);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Revokes one device of an account by the first 16 characters of its hash (the sessions list's ref). */
export async function revokeDeviceByRef(db: Executor, owner: DeviceOwner, ref: string): Promise<number> {
  if (!/^[0-9a-f]{16}$/.test(ref)) return 0;
  const r = await db
    .deleteFrom('accountDevices')
    .where(ownerColumn(owner), '=', ownerId(owner))
    .where('idHash', 'like', `${ref}%`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
