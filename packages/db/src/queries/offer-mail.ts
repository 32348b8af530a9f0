import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * What an installer's offer email says (issue 47, decision 1060): the offer, its job's where and what
 * (never the homeowner's contact), and the installer with what their time zone is read from (the
 * zone they booked their onboarding call in, else their service area's state).
 */
export interface OfferMailFacts {
  offerId: string;
  jobId: string;
  dealerId: string;
  email: string;
  fullName: string;
  distanceMiles: string;
  offeredAt: Date;
  expiresAt: Date;
  city: string;
  state: string;
  zipCode: string;
  fans: number | null;
  atticSqFt: number | null;
  notes: string | null;
  areaState: string | null;
  callTimeZone: string | null;
}

const facts = (db: Executor) =>
  db
    .selectFrom('jobOffers as o')
    .innerJoin('jobs as j', 'j.id', 'o.jobId')
    .innerJoin('dealers as d', 'd.id', 'o.dealerId')
    .leftJoin('serviceAreas as a', 'a.dealerId', 'o.dealerId')
    .leftJoin('onboardingCalls as c', 'c.dealerId', 'o.dealerId')
    .select([
      'o.id as offerId',
      'o.jobId',
      'o.dealerId',
      'd.email',
      'd.fullName',
      'o.distanceMiles',
      'o.offeredAt',
      'o.expiresAt',
      'j.city',
      'j.state',
      'j.zipCode',
      'j.fans',
      'j.atticSqFt',
      'j.notes',
      'a.state as areaState',
      'c.timeZone as callTimeZone',
    ]);

export function offerMailFacts(db: Executor, offerId: string): Promise<OfferMailFacts | undefined> {
  return facts(db).where('o.id', '=', offerId).executeTakeFirst();
}

/**
 * Claims the open offers whose reminder is due (a quarter of the window left, still before the
 * deadline) and not yet sent: marked reminded in the same statement, skipping rows another sweep
 * holds, so each offer is reminded at most once. Resolves with their ids.
 */
export async function claimOfferReminders(db: Executor, now: Date, limit: number): Promise<string[]> {
  const r = await sql<{ id: string }>`
    with due as (
      select id from job_offers
      where status = 'open' and reminded_at is null and remind_at is not null
        and remind_at <= ${now} and expires_at > ${now}
      order by remind_at
      limit ${limit}
      for update skip locked
    )
    update job_offers o set reminded_at = ${now}
    from due where o.id = due.id and o.reminded_at is null
    returning o.id`.execute(db);
  return r.rows.map((row) => row.id);
}
