import type { Executor } from './executor';

/**
 * The applications waiting for a decision (issue 38): pending dealers, oldest first (so the overdue
 * ones lead), at most `limit`; `submittedBefore` keeps only those submitted before it.
 */
export function listPendingApplications(db: Executor, o: { limit: number; submittedBefore?: Date | undefined }) {
  let q = db
    .selectFrom('dealers')
    .select(['id', 'fullName', 'companyName', 'email', 'tier', 'createdAt'])
    .where('status', '=', 'pending');
  if (o.submittedBefore) q = q.where('createdAt', '<', o.submittedBefore);
  return q.orderBy('createdAt', 'asc').orderBy('id', 'asc').limit(o.limit).execute();
}

/** How many applications wait, and how many of them were submitted before `overdueBefore`. */
export async function countPendingApplications(db: Executor, overdueBefore: Date) {
  const row = await db
    .selectFrom('dealers')
    .select((eb) => [
      eb.fn.countAll<string>().as('pending'),
      eb.fn.countAll<string>().filterWhere('createdAt', '<', overdueBefore).as('overdue'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), overdue: Number(row.overdue) };
}

/** The reviewers and owners who have an email address: the digest's recipients. */
export function listDigestRecipients(db: Executor) {
  return db
    .selectFrom('admins')
    .select(['username', 'email', 'role'])
    .where('role', 'in', ['owner', 'reviewer'])
    .where('email', 'is not', null)
    .orderBy('username')
    .execute();
}
