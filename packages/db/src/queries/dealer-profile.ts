import type { Dealer } from '../types';
import type { Executor } from './executor';

// The dealer's own profile and password (issue 15): what a signed-in dealer may change themselves.

const PROFILE = ['companyName', 'phoneE164', 'addressJson', 'logoUrl', 'crmName', 'inReferralPicker'] as const;

export const findOwnProfile = (db: Executor, id: string) =>
  db
    .selectFrom('dealers')
    .select(['id', 'email', 'tier', 'fullName', ...PROFILE])
    .where('id', '=', id)
    .executeTakeFirst();

/** Locks the row while the profile changes, so the audit's before-state is the one replaced. */
export const lockOwnProfile = (trx: Executor, id: string) =>
  trx
    .selectFrom('dealers')
    .select(['id', 'email', ...PROFILE])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

export async function updateOwnProfile(
  trx: Executor,
  id: string,
  v: {
    companyName: string | null;
    phoneE164: string;
    addressJson: string;
    logoUrl: string | null;
    crmName: Dealer['crmName'];
    inReferralPicker: boolean;
  },
): Promise<void> {
  await trx
    .updateTable('dealers')
    .set({ ...v, updatedAt: new Date() })
    .where('id', '=', id)
    .execute();
}

export const findDealerPasswordForUpdate = (trx: Executor, id: string) =>
  trx
    .selectFrom('dealers')
    .select(['id', 'email', 'fullName', 'tier', 'status', 'password'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

/** Replaces the hash only (portal access is unchanged). */
export async function replaceDealerPassword(trx: Executor, id: string, passwordHash: string): Promise<void> {
  await trx
    .updateTable('dealers')
    .set({ password: passwordHash, updatedAt: new Date() })
    .where('id', '=', id)
    .execute();
}
