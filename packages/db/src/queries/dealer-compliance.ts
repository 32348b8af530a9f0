import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * A dealer's insurance certificate and contractor licence (issue 38), one row per dealer, and the
 * expiry reminders sent for them (compliance_reminders: one row per document, expiry and lead time).
 */

export interface ComplianceValues {
  insuranceCertUrl: string;
  insurer: string;
  insuranceExpiresOn: string;
  licenseNumber: string;
  licenseState: string;
  licenseExpiresOn: string;
}

export const complianceOf = (db: Executor, dealerId: string) =>
  db
    .selectFrom('dealerCompliance')
    .select([
      'insuranceCertUrl',
      'insurer',
      sql<string>`to_char(insurance_expires_on, 'YYYY-MM-DD')`.as('insuranceExpiresOn'),
      'licenseNumber',
      'licenseState',
      sql<string>`to_char(license_expires_on, 'YYYY-MM-DD')`.as('licenseExpiresOn'),
      'updatedAt',
    ])
    .where('dealerId', '=', dealerId)
    .executeTakeFirst();

export const upsertCompliance = (db: Executor, dealerId: string, v: ComplianceValues, at: Date) =>
  db
    .insertInto('dealerCompliance')
    .values({ dealerId, ...v, updatedAt: at })
    .onConflict((oc) => oc.column('dealerId').doUpdateSet({ ...v, updatedAt: at }))
    .execute();

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
      select c.dealer_id, x.document, x.expires_on,
        case when x.expires_on <= ${today}::date + 7 then 7 else 30 end as days_before
      from dealer_compliance c
      join dealers d on d.id = c.dealer_id and d.status in ('approved', 'active')
      cross join lateral (values ('insurance', c.insurance_expires_on), ('license', c.license_expires_on))
        as x (document, expires_on)
      where x.expires_on >= ${today}::date and x.expires_on <= ${today}::date + 30
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
    select d.id as "dealerId", d.full_name as "fullName", x.document, to_char(x.expires_on, 'YYYY-MM-DD') as "expiresOn"
    from dealer_compliance c
    join dealers d on d.id = c.dealer_id and d.status in ('approved', 'active')
    cross join lateral (values ('insurance', c.insurance_expires_on), ('license', c.license_expires_on))
      as x (document, expires_on)
    where x.expires_on >= ${today}::date and x.expires_on <= ${until}::date
    order by x.expires_on, d.full_name
    limit ${limit}`.execute(db);
  return r.rows;
}
