import { APPLICANT_COLUMNS } from './dealers';
import type { Executor } from './executor';

// Application status links (issue 15): a private, revocable link to one application's status page.

/**
 * The application behind a live link (not revoked), with only what the status page shows, and
 * whether an admin has acted on it (an admin audit row about it; the dealer index of audit_logs).
 */
export function findApplicationByStatusToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('applicationStatusLinks as l')
    .innerJoin('dealers as d', 'd.id', 'l.dealerId')
    .select([...APPLICANT_COLUMNS, 'd.accessGranted', 'd.createdAt', 'd.approvalDate'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('auditLogs as a')
            .select('a.id')
            .whereRef('a.dealerId', '=', 'd.id')
            .where('a.category', '=', 'admin'),
        )
        .as('adminActed'),
    )
    .where('l.tokenHash', '=', tokenHash)
    .where('l.revokedAt', 'is', null)
    .executeTakeFirst();
}

/** Revokes every live link of an application; the number revoked. */
export async function revokeStatusLinks(db: Executor, dealerId: string, revokedBy: string): Promise<number> {
  const rows = await db
    .updateTable('applicationStatusLinks')
    .set({ revokedAt: new Date(), revokedBy })
    .where('dealerId', '=', dealerId)
    .where('revokedAt', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

export async function countLiveStatusLinks(db: Executor, dealerId: string): Promise<number> {
  const row = await db
    .selectFrom('applicationStatusLinks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('dealerId', '=', dealerId)
    .where('revokedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
