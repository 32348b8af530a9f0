import {
  type DeviceOwner,
  isKnownDevice,
  listDevices,
  recordDevice,
  revokeDeviceByRef,
  revokeDevices,
} from '@dn/db/queries/account-devices';
import type { Context, User } from '../../context';
import { DEVICE_COOKIE_MAX_AGE_SEC, deviceOf, newDeviceId } from '../../lib/device-cookie';
import { sha256 } from '../../lib/tokens';
import type { SignInScope } from './lock-notice';

/**
 * Device cookies on the server's record (decision 0630, issue 35 finding 3): a cookie has a sign-in
 * budget of its own only while its row is in account_devices, for the account it names. At most
 * MAX_DEVICES a account (the least recently used drops); a password change or reset and "sign out
 * everywhere" revoke them; they are listed with the account's sessions.
 */
export const MAX_DEVICES = 10;

/** The name a device cookie gives an account: `dealer:<email>`, `admin:<username>`, lower-cased. */
export const deviceAccount = (scope: SignInScope, account: string) => `${scope}:${account.toLowerCase()}`;

export const ownerOf = (user: Pick<User, 'id' | 'role'>): DeviceOwner =>
  user.role === 'admin' ? { adminId: user.id } : { dealerId: user.id };

/** The hash of this browser's device id when its cookie names `account`, recorded or not. */
function cookieHash(ctx: Context, account: string): string | null {
  const d = ctx.meta.device;
  return d && d.account === account ? sha256(d.id) : null;
}

/** This browser's device id when its cookie names `account` and is on record: it then has a budget of its own. */
export async function knownDevice(ctx: Context, account: string): Promise<string | null> {
  const hash = cookieHash(ctx, account);
  if (!hash || !ctx.meta.device) return null;
  return (await isKnownDevice(ctx.db, hash, account, new Date(Date.now() - DEVICE_COOKIE_MAX_AGE_SEC * 1000)))
    ? ctx.meta.device.id
    : null;
}

/**
 * After a successful sign-in: this browser is (still) a device of the account. A cookie already on
 * record for it keeps its id; otherwise a new one is minted. The account keeps its MAX_DEVICES most
 * recently used devices.
 */
export async function rememberDevice(ctx: Context, account: string, owner: DeviceOwner): Promise<void> {
  if (!ctx.session.rememberDevice) return;
  const id = (await knownDevice(ctx, account)) ?? newDeviceId();
  await recordDevice(ctx.db, { idHash: sha256(id), account, owner, device: deviceOf(ctx.meta.userAgent) }, MAX_DEVICES);
  ctx.session.rememberDevice(account, id);
}

/** Revokes every device of the signed-in user but this browser's (a password change, "sign out everywhere"). */
export function revokeOtherDevices(ctx: Context & { user: User }, db = ctx.db): Promise<number> {
  const scope = ctx.user.role;
  const account = deviceAccount(scope, scope === 'admin' ? ctx.user.username : (ctx.user.email ?? ''));
  return revokeDevices(db, ownerOf(ctx.user), cookieHash(ctx, account));
}

/** The user's remembered devices, most recently used first, as the sessions card lists them. */
export async function devicesOf(ctx: Context & { user: User }) {
  const scope = ctx.user.role;
  const account = deviceAccount(scope, scope === 'admin' ? ctx.user.username : (ctx.user.email ?? ''));
  const here = cookieHash(ctx, account);
  const rows = await listDevices(ctx.db, ownerOf(ctx.user));
  return rows.map((d) => ({
    ref: d.idHash.slice(0, 16),
    device: d.device,
    signedInAt: d.createdAt,
    lastSeenAt: d.lastUsedAt,
    expiresAt: new Date(new Date(d.lastUsedAt).getTime() + DEVICE_COOKIE_MAX_AGE_SEC * 1000),
    current: d.idHash === here,
  }));
}

/** Forgets one remembered device by its ref; resolves with how many were forgotten. */
export const forgetDevice = (ctx: Context & { user: User }, ref: string) =>
  revokeDeviceByRef(ctx.db, ownerOf(ctx.user), ref);
