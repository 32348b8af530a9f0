import type { Harness, TestApp } from './helpers';
import { createDealer, signInAdmin, signInDealer } from './helpers';

/** An approved dealer of `tier`, approved at `approvedAt`, signed in. */
export async function approvedDealer(
  h: Harness,
  tier: 'Affiliate' | 'Authorized' | 'Preferred',
  opts: { fullName?: string; approvedAt?: Date } = {},
) {
  const d = await createDealer(h.db, { tier, fullName: opts.fullName ?? 'Jane Q Dealer' });
  await h.db
    .updateTable('dealers')
    .set({ approvalDate: opts.approvedAt ?? new Date() })
    .where('id', '=', d.id)
    .execute();
  return { ...d, cookie: await signInDealer(h.app, d.email) };
}

/** An admin of `role`, signed in. */
export async function adminAs(app: TestApp, role: 'owner' | 'reviewer' | 'viewer') {
  const username = `ob-${role}-${Math.random().toString(36).slice(2, 8)}`;
  const cookie = await signInAdmin(app, username);
  await app.deps.db.updateTable('admins').set({ role }).where('username', '=', username).execute();
  return cookie;
}

/** yyyy-mm-dd `days` after `from` (a calendar day). */
export const plusDays = (from: string, days: number) => {
  const d = new Date(`${from}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
