import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * The expiry reminders of installers' compliance documents (issue 38), read from their VERIFIED
 * documents since issue 45 (queries/compliance-documents.ts): per dealer and document, the latest
 * verified expiry is the one that counts (a verified renewal silences the old one's reminders).
 * compliance_reminders keeps one row per document, expiry and lead time; its document is spelled
 * `license` as before. The typed dates of dealer_compliance are no longer read (decision 1010).
 */

/** The latest verified expiry per active installer and document, from `today` on. */
const verifiedExpiries = (today: string) => sql`
  select c.dealer_id, case c.kind when 'licence' then 'license' else c.kind end as document,
    max(c.expires_on) as expires_on
  from compliance_documents c
  join dealers d on d.id = c.dealer_id and d.status in ('approved', 'active')
  where c.status = 'verified' and c.expires_on >= ${today}::date
  group by c.dealer_id, c.kind`;

export interface DueComplianceReminder {
  dealerId: string;
  document: 'insurance' | 'license';
  expiresOn: string;
  daysBefore: number;
  email: string;
  fullName: string;
}

/**
 * Claims the expiry reminders due on `today`: a document expiring within `daysBefore` days (and not
 * yet expired) of an active installer gets its reminder once, the insert's primary key making it
 * once-only across instances and runs; only the 7-day one is sent when both are due at once (a
 * dealer who filed late needs one email, not two). Returns what was claimed, for the caller to
 * email in the same transaction.
 */
export async function claimComplianceReminders(
  db: Executor,
  today: string,
  limit: number,
): Promise<DueComplianceReminder[]> {
  const r = await sql<DueComplianceReminder>`
    with due as (
      select v.dealer_id, v.document, v.expires_on,
        case when v.expires_on <= ${today}::date + 7 then 7 else 30 end as days_before
      from (${verifiedExpiries(today)}) v
      where v.expires_on <= ${today}::date + 30
    ), claimed as (
      insert into compliance_reminders (dealer_id, document, expires_on, days_before)
      select dealer_id, document, expires_on, days_before from due
      where not exists (
        select 1 from compliance_reminders r
        where r.dealer_id = due.dealer_id and r.document = due.document and r.expires_on = due.expires_on
          and r.days_before <= due.days_before
      )
      limit ${limit}
      on conflict do nothing
      returning dealer_id, document, expires_on, days_before
    )
    select c.dealer_id as "dealerId", c.document, to_char(c.expires_on, 'YYYY-MM-DD') as "expiresOn",
      c.days_before as "daysBefore", d.email, d.full_name as "fullName"
    from claimed c join dealers d on d.id = c.dealer_id`.execute(db);
  return r.rows;
}

/** Reminders sent for a dealer (the admin timeline and the tests). */
export const complianceRemindersOf = (db: Executor, dealerId: string) =>
  db
    .selectFrom('complianceReminders')
    .select(['document', sql<string>`to_char(expires_on, 'YYYY-MM-DD')`.as('expiresOn'), 'daysBefore', 'sentAt'])
    .where('dealerId', '=', dealerId)
    .orderBy('sentAt')
    .execute();

/** Documents of active installers expiring from `today` to `until` (the daily digest's section), soonest first. */
export async function expiringCompliance(db: Executor, today: string, until: string, limit: number) {
  const r = await sql<{ dealerId: string; fullName: string; document: 'insurance' | 'license'; expiresOn: string }>`
    select d.id as "dealerId", d.full_name as "fullName", v.document, to_char(v.expires_on, 'YYYY-MM-DD') as "expiresOn"
    from (${verifiedExpiries(today)}) v
    join dealers d on d.id = v.dealer_id
    where v.expires_on <= ${until}::date
    order by v.expires_on, d.full_name
    limit ${limit}`.execute(db);
  return r.rows;
}
