import type { DB, Kysely } from '@dn/db';
import { type AdminAccount, type DealerRecord, findAdminById, findDealerRecord } from '@dn/db/queries/accounts';
import type { SessionRead } from '@dn/db/queries/sessions';
import { ACTIVE_STATUSES } from '@dn/schema';
import type { User } from '../../context';

const dealerUser = (
  d: DealerRecord,
  referralsVersion?: string | null,
  jobsVersion?: SessionRead['jobsVersion'],
): User => ({
  id: d.id,
  role: 'dealer',
  username: d.email,
  fullName: d.fullName,
  email: d.email,
  status: d.status,
  tier: d.tier,
  record: d,
  ...(referralsVersion == null ? {} : { referralsVersion }),
  ...(jobsVersion == null ? {} : { jobsVersion }),
});

const adminUser = ({ role, ...a }: AdminAccount, adminVersions?: SessionRead['adminVersions']): User => ({
  ...a,
  role: 'admin',
  adminRole: role,
  status: null,
  tier: null,
  ...(adminVersions == null ? {} : { adminVersions }),
});

/** The signed-in user behind a session, or null when the account is gone or may no longer sign in. */
export async function loadSessionUser(db: Kysely<DB>, sess: { userId?: string; role?: string }): Promise<User | null> {
  if (!sess.userId) return null;
  if (sess.role === 'admin') {
    const a = await findAdminById(db, sess.userId);
    return a ? adminUser(a) : null;
  }
  if (sess.role === 'dealer') {
    const d = await findDealerRecord(db, sess.userId, ACTIVE_STATUSES);
    return d ? dealerUser(d) : null;
  }
  return null;
}

/** The user of a session read with its row (readSessionWithUser), or null. */
export function sessionUser(
  read: Pick<SessionRead, 'dealer' | 'referralsVersion' | 'jobsVersion' | 'admin' | 'adminVersions'>,
): User | null {
  if (read.dealer) return dealerUser(read.dealer, read.referralsVersion, read.jobsVersion);
  if (read.admin) return adminUser(read.admin, read.adminVersions);
  return null;
}

/**
 * An admin poll's version from the console versions read with the session (decision 0791): the
 * named sources and the admin's role, so a changed role never confirms an answer read under the
 * old one. null when they were not read with the session.
 */
export function adminVersion(user: User, ...sources: readonly ('dealers' | 'calls')[]): string | null {
  const versions = user.adminVersions;
  return versions ? JSON.stringify([...sources.map((s) => versions[s]), user.adminRole ?? null]) : null;
}

/** What GET /api/auth/user answers: never a hash. */
export function publicUser(u: User) {
  return {
    id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    role: u.role,
    tier: u.tier,
    status: u.status,
    adminRole: u.adminRole ?? null,
  };
}
export type PublicUser = ReturnType<typeof publicUser>;
