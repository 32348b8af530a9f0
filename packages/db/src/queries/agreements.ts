import { sql } from 'kysely';
import type { Tier } from '../types';
import type { Executor } from './executor';

/**
 * The dealer agreement per tier (issue 38; decision 0950): versions are rows, never edited (a trigger
 * refuses updates); signatures are clickwrap records, never edited either. The current version of
 * a tier is its highest.
 */

export const currentAgreement = (db: Executor, tier: Tier) =>
  db
    .selectFrom('agreementVersions')
    .select(['tier', 'version', 'text', 'textSha256', 'createdAt'])
    .where('tier', '=', tier)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The current version of every tier, for the owner's editor. */
export const currentAgreements = (db: Executor) =>
  db
    .selectFrom('agreementVersions as v')
    .select(['v.tier', 'v.version', 'v.text', 'v.createdAt', 'v.createdBy'])
    .where(({ eb, ref }) =>
      eb(
        'v.version',
        '=',
        eb
          .selectFrom('agreementVersions as w')
          .select(({ fn }) => fn.max('w.version').as('m'))
          .where('w.tier', '=', ref('v.tier')),
      ),
    )
    .orderBy('v.tier')
    .execute();

/**
 * A new version of a tier's text: the next number, with the text's SHA-256 computed by the
 * database from the stored text (what is hashed is what is kept). Two owners saving at once: the
 * primary key (tier, version) refuses the second, which the service reports as a conflict.
 */
export const insertAgreementVersion = (db: Executor, tier: Tier, text: string, createdBy: string) =>
  db
    .insertInto('agreementVersions')
    .columns(['tier', 'version', 'text', 'textSha256', 'createdBy'])
    .expression(
      db.selectNoFrom(({ eb }) => [
        sql<Tier>`${tier}`.as('tier'),
        eb
          .selectFrom('agreementVersions')
          .select(sql<number>`coalesce(max(version), 0) + 1`.as('n'))
          .where('tier', '=', tier)
          .as('version'),
        sql<string>`${text}`.as('text'),
        sql<string>`encode(sha256(convert_to(${text}, 'UTF8')), 'hex')`.as('textSha256'),
        sql<string>`${createdBy}`.as('createdBy'),
      ]),
    )
    .returning(['tier', 'version', 'textSha256', 'createdAt'])
    .executeTakeFirstOrThrow();

export interface NewSignature {
  dealerId: string;
  tier: Tier;
  version: number;
  textSha256: string;
  signatureName: string;
  signedAt: Date;
  ipAddress: string;
  userAgent: string | null;
}

/** A signature; a second of the same version by the same dealer is refused by the unique key. */
export const insertSignature = (db: Executor, s: NewSignature) =>
  db
    .insertInto('agreementSignatures')
    .values(s)
    .returning(['id', 'tier', 'version', 'textSha256', 'signatureName', 'signedAt'])
    .executeTakeFirstOrThrow();

const SIGNATURE_COLUMNS = [
  'id',
  'tier',
  'version',
  'textSha256',
  'signatureName',
  'signedAt',
  'ipAddress',
  'userAgent',
] as const;

/** Every signature of a dealer, newest first (every version they ever signed is kept). */
export const signaturesOf = (db: Executor, dealerId: string) =>
  db
    .selectFrom('agreementSignatures')
    .select(SIGNATURE_COLUMNS)
    .where('dealerId', '=', dealerId)
    .orderBy('signedAt', 'desc')
    .execute();

/** One signature with the text signed, for its PDF. */
export const signatureWithText = (db: Executor, dealerId: string, signatureId: string | null) => {
  let q = db
    .selectFrom('agreementSignatures as s')
    .innerJoin('agreementVersions as v', (j) => j.onRef('v.tier', '=', 's.tier').onRef('v.version', '=', 's.version'))
    .innerJoin('dealers as d', 'd.id', 's.dealerId')
    .select([
      's.id',
      's.tier',
      's.version',
      's.textSha256',
      's.signatureName',
      's.signedAt',
      's.ipAddress',
      's.userAgent',
      'v.text',
      'd.fullName',
      'd.email',
      'd.companyName',
    ])
    .where('s.dealerId', '=', dealerId);
  if (signatureId) q = q.where('s.id', '=', signatureId);
  return q.orderBy('s.signedAt', 'desc').limit(1).executeTakeFirst();
};

/**
 * Asks every active dealer of `tier` to sign version `version`: one email each, written by one
 * statement in the new version's transaction (a tier may hold thousands of dealers).
 */
export async function enqueueResignNotices(
  db: Executor,
  tier: Tier,
  mail: { kind: string; subject: string; text: string; html: string },
): Promise<number> {
  const r = await sql`
    insert into email_outbox (kind, to_address, subject, text_body, html_body, dealer_id)
    select ${mail.kind}, d.email, ${mail.subject}, ${mail.text}, ${mail.html}, d.id
    from dealers d
    where d.tier = ${tier} and d.status in ('approved', 'active')`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** The gate of job offers (migration 2300): signed the current agreement, insurance and licence valid on `on`. */
export async function installerGateOk(db: Executor, dealerId: string, on: string): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select installer_gate_ok(${dealerId}::uuid, ${on}::date) as ok`.execute(db);
  return r.rows[0]?.ok === true;
}
