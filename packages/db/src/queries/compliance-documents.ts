import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * The installers' compliance documents (issue 45, decision 1010): an uploaded insurance certificate
 * or contractor licence, its file (bytea, so a backup carries it), and its review. Only a verified,
 * unexpired document counts: the job-offer gate (installer_gate_ok), the checklist and the expiry
 * reminders read the verified ones. A row without a file is a date typed before documents were
 * required: pending, and never verifiable.
 */

export type ComplianceKind = 'insurance' | 'licence';

/** What lists show of a document (never its bytes). */
const SUMMARY = [
  'id',
  'kind',
  'status',
  sql<string>`to_char(expires_on, 'YYYY-MM-DD')`.as('expiresOn'),
  'fileName',
  'contentType',
  'sizeBytes',
  'sha256',
  'note',
  'rejectionReason',
  'reviewedBy',
  'reviewedAt',
  'createdAt',
] as const;

export interface NewComplianceDocument {
  dealerId: string;
  kind: ComplianceKind;
  expiresOn: string;
  fileName: string;
  contentType: 'application/pdf' | 'image/png' | 'image/jpeg';
  content: Buffer;
  sha256: string;
}

/**
 * Stores an upload unless the dealer already has `maxPending` files of that kind waiting: the
 * dealer's row is locked first, so parallel uploads count one after another. The typed record of
 * that kind (pending, no file) makes way for the file. Returns the new row, or null when over budget.
 */
export async function insertComplianceDocument(db: Executor, doc: NewComplianceDocument, maxPending: number) {
  await db.selectFrom('dealers').select('id').where('id', '=', doc.dealerId).forUpdate().execute();
  await db
    .deleteFrom('complianceDocuments')
    .where('dealerId', '=', doc.dealerId)
    .where('kind', '=', doc.kind)
    .where('status', '=', 'pending')
    .where('content', 'is', null)
    .execute();
  const waiting = await db
    .selectFrom('complianceDocuments')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('dealerId', '=', doc.dealerId)
    .where('kind', '=', doc.kind)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  if (waiting.n >= maxPending) return null;
  return db
    .insertInto('complianceDocuments')
    .values({ ...doc, sizeBytes: doc.content.length })
    .returning(['id', 'status', 'kind', sql<string>`to_char(expires_on, 'YYYY-MM-DD')`.as('expiresOn'), 'createdAt'])
    .executeTakeFirstOrThrow();
}

/** A dealer's documents, newest first, without their bytes. */
export const complianceDocumentsOf = (db: Executor, dealerId: string) =>
  db
    .selectFrom('complianceDocuments')
    .select(SUMMARY)
    .where('dealerId', '=', dealerId)
    .orderBy('kind')
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();

export type ComplianceDocumentSummary = Awaited<ReturnType<typeof complianceDocumentsOf>>[number];

/** A document's file (the download), with the dealer it belongs to. */
export const complianceDocumentFile = (db: Executor, id: string) =>
  db
    .selectFrom('complianceDocuments')
    .select(['id', 'dealerId', 'kind', 'fileName', 'contentType', 'content', 'sha256'])
    .where('id', '=', id)
    .executeTakeFirst();

/** A document with its dealer's name and email (a review's answer and its email). */
export const complianceDocumentForReview = (db: Executor, id: string) =>
  db
    .selectFrom('complianceDocuments as c')
    .innerJoin('dealers as d', 'd.id', 'c.dealerId')
    .select([
      'c.id',
      'c.dealerId',
      'c.kind',
      'c.status',
      sql<string>`to_char(c.expires_on, 'YYYY-MM-DD')`.as('expiresOn'),
      sql<boolean>`c.content is not null`.as('hasFile'),
      'd.email',
      'd.fullName',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();

/**
 * Verifies or rejects a pending document with a file (a reject may also close a typed record
 * without one), once: the `status = 'pending'` condition under the row's lock makes a second,
 * parallel review update nothing. Returns whether this call made the change.
 */
export async function reviewComplianceDocument(
  db: Executor,
  id: string,
  review: { status: 'verified' | 'rejected'; reason: string | null; by: string; at: Date; today: string },
) {
  let q = db
    .updateTable('complianceDocuments')
    .set({ status: review.status, rejectionReason: review.reason, reviewedBy: review.by, reviewedAt: review.at })
    .where('id', '=', id)
    .where('status', '=', 'pending');
  if (review.status === 'verified') {
    q = q.where('content', 'is not', null).where(sql<boolean>`expires_on >= ${review.today}::date`);
  }
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The review queue: pending documents oldest first, with their dealers, 50 a page. */
export const pendingComplianceDocuments = (db: Executor, limit: number, offset: number) =>
  db
    .selectFrom('complianceDocuments as c')
    .innerJoin('dealers as d', 'd.id', 'c.dealerId')
    .select([
      'c.id',
      'c.dealerId',
      'd.fullName',
      'd.companyName',
      'd.tier',
      'c.kind',
      sql<string>`to_char(c.expires_on, 'YYYY-MM-DD')`.as('expiresOn'),
      'c.fileName',
      'c.contentType',
      'c.sizeBytes',
      'c.note',
      'c.createdAt',
    ])
    .where('c.status', '=', 'pending')
    .orderBy('c.createdAt')
    .orderBy('c.id')
    .limit(limit)
    .offset(offset)
    .execute();
