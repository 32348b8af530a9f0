import { createHash } from 'node:crypto';
import {
  complianceDocumentFile,
  complianceDocumentForReview,
  insertComplianceDocument,
  pendingComplianceDocuments,
  reviewComplianceDocument,
} from '@dn/db/queries/compliance-documents';
import {
  CALL_TIME_ZONE,
  COMPLIANCE_FILE_TYPES,
  COMPLIANCE_KIND_LABELS,
  COMPLIANCE_MESSAGES,
  type ComplianceDocumentFields,
  type ComplianceFileType,
  INSTALLER_TIERS,
  MAX_COMPLIANCE_FILE_BYTES,
  MAX_COMPLIANCE_YEARS,
  MAX_PENDING_COMPLIANCE_FILES,
  ONBOARDING_MESSAGES,
  todayIn,
} from '@dn/schema';
import { fileTypeFromBuffer } from 'file-type';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { complianceRejectedEmail } from '../mail/onboarding-templates';
import { enqueueMail } from '../mail/outbox';
import { ownDealer } from './dealer';

/**
 * The installer's compliance documents (issue 45, decision 1010): the dealer uploads the insurance
 * certificate or contractor licence as a file; an owner or reviewer opens it and verifies or rejects
 * it (the reason emailed). Only a verified, unexpired document opens the job-offer gate
 * (installer_gate_ok) and completes the checklist's step (status.ts).
 */

const PAGE = 50;

/** An upload as the route hands it over: the parsed fields, the file's name and its bytes. */
export interface ComplianceUpload extends ComplianceDocumentFields {
  fileName: string;
  content: Buffer;
}

/** The file's type from its bytes (magic numbers), one of the accepted three, or a 400. */
async function sniffedType(content: Buffer): Promise<ComplianceFileType> {
  if (content.length === 0) throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.emptyFile);
  const found = await fileTypeFromBuffer(content);
  const mime = found?.mime as string | undefined;
  if (!mime || !(COMPLIANCE_FILE_TYPES as readonly string[]).includes(mime)) {
    throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.fileType, {
      fieldErrors: { file: COMPLIANCE_MESSAGES.fileType },
    });
  }
  return mime as ComplianceFileType;
}

/** A file name safe to store and to send back in Content-Disposition: its base name, plain characters, the sniffed extension. */
export function storedFileName(name: string, type: ComplianceFileType): string {
  const ext = type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg';
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9 ._-]+/g, '_')
    .trim()
    .slice(0, 100);
  return `${base || 'certificate'}.${ext}`;
}

const plusYears = (day: string, years: number) => `${Number(day.slice(0, 4)) + years}${day.slice(4)}`;

/** POST /api/dealer/compliance/documents: stores the file as a pending document (201). */
export async function uploadComplianceDocument(ctx: Context & { user: User }, upload: ComplianceUpload) {
  const dealer = await ownDealer(ctx);
  if (!INSTALLER_TIERS.includes(dealer.tier)) throw new AppError('FORBIDDEN', ONBOARDING_MESSAGES.notInstallerTier);
  const today = todayIn(CALL_TIME_ZONE, ctx.clock.now());
  if (upload.expiresOn < today) {
    throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.expiredOnUpload, {
      fieldErrors: { expiresOn: COMPLIANCE_MESSAGES.expiredOnUpload },
    });
  }
  if (upload.expiresOn > plusYears(today, MAX_COMPLIANCE_YEARS)) {
    throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.tooFarAhead, {
      fieldErrors: { expiresOn: COMPLIANCE_MESSAGES.tooFarAhead },
    });
  }
  if (upload.content.length > MAX_COMPLIANCE_FILE_BYTES)
    throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.fileTooLarge);
  const contentType = await sniffedType(upload.content);
  const sha256 = createHash('sha256').update(upload.content).digest('hex');
  const doc = await ctx.db.transaction().execute(async (trx) => {
    const row = await insertComplianceDocument(
      trx,
      {
        dealerId: dealer.id,
        kind: upload.kind,
        expiresOn: upload.expiresOn,
        fileName: storedFileName(upload.fileName, contentType),
        contentType,
        content: upload.content,
        sha256,
      },
      MAX_PENDING_COMPLIANCE_FILES,
    );
    if (!row) throw new AppError('CONFLICT', COMPLIANCE_MESSAGES.tooManyPending);
    await audit(trx, ctx, {
      eventType: 'compliance.document_uploaded',
      category: 'dealer',
      dealerId: dealer.id,
      message: `${COMPLIANCE_KIND_LABELS[upload.kind]} uploaded (expires ${upload.expiresOn}), waiting for review`,
      details: {
        documentId: row.id,
        kind: upload.kind,
        expiresOn: upload.expiresOn,
        sha256,
        size: upload.content.length,
      },
    });
    return row;
  });
  return {
    id: doc.id,
    kind: doc.kind,
    status: doc.status,
    expiresOn: doc.expiresOn,
    contentType,
    sizeBytes: upload.content.length,
    sha256,
  };
}

/**
 * A document's file, for its dealer or an admin (the routes declare who may call; a dealer asking for
 * another dealer's document is told it does not exist, as if it did not).
 */
export async function complianceFile(ctx: Context & { user: User }, id: string) {
  const doc = await complianceDocumentFile(ctx.db, id);
  const mine = ctx.user.role === 'admin' || doc?.dealerId === ctx.user.id;
  if (!doc || !mine) throw new AppError('NOT_FOUND', COMPLIANCE_MESSAGES.notFound);
  if (!doc.content || !doc.contentType || !doc.fileName) throw new AppError('NOT_FOUND', COMPLIANCE_MESSAGES.noFile);
  return { fileName: doc.fileName, contentType: doc.contentType, content: doc.content, sha256: doc.sha256 };
}

/** Why a review changed nothing: unknown, already reviewed, no file, or expired. */
async function reviewRefusal(ctx: Context, id: string, today: string): Promise<AppError> {
  const doc = await complianceDocumentForReview(ctx.db, id);
  if (!doc) return new AppError('NOT_FOUND', COMPLIANCE_MESSAGES.notFound);
  if (doc.status !== 'pending') return new AppError('CONFLICT', COMPLIANCE_MESSAGES.alreadyReviewed);
  if (!doc.hasFile) return new AppError('CONFLICT', COMPLIANCE_MESSAGES.noFile);
  if (doc.expiresOn < today) return new AppError('CONFLICT', COMPLIANCE_MESSAGES.expiredOnReview);
  return new AppError('CONFLICT', COMPLIANCE_MESSAGES.alreadyReviewed);
}

type ReviewedDocument = NonNullable<Awaited<ReturnType<typeof complianceDocumentForReview>>>;

/**
 * A review (reviewer and up), once whoever asks at the same time: the update's `status = 'pending'`
 * under the row's lock. `andThen` runs in the review's transaction when this call made the change.
 */
async function review(
  ctx: Context & { user: User },
  id: string,
  decision: { status: 'verified' | 'rejected'; reason: string | null },
  andThen?: (ctx: Context, trx: Context['db'], doc: ReviewedDocument, reason: string) => Promise<void>,
) {
  const now = ctx.clock.now();
  const today = todayIn(CALL_TIME_ZONE, now);
  const { status, reason } = decision;
  const done = await ctx.db.transaction().execute(async (trx) => {
    const changed = await reviewComplianceDocument(trx, id, { status, reason, by: ctx.user.username, at: now, today });
    if (!changed) return null;
    const doc = (await complianceDocumentForReview(trx, id))!;
    const label = COMPLIANCE_KIND_LABELS[doc.kind];
    await audit(trx, ctx, {
      eventType: status === 'verified' ? 'compliance.document_verified' : 'compliance.document_rejected',
      category: 'dealer',
      dealerId: doc.dealerId,
      message: status === 'verified' ? `${label} verified (expires ${doc.expiresOn})` : `${label} rejected: ${reason}`,
      details: { documentId: id, kind: doc.kind, expiresOn: doc.expiresOn, ...(reason ? { reason } : {}) },
    });
    await andThen?.(ctx, trx, doc, reason ?? '');
    return doc;
  });
  if (!done) throw await reviewRefusal(ctx, id, today);
  return { id, dealerId: done.dealerId, kind: done.kind, status, expiresOn: done.expiresOn };
}

/** The rejection's email to the dealer, with the reason, in the review's transaction. */
async function mailRejection(ctx: Context, trx: Context['db'], doc: ReviewedDocument, reason: string) {
  await enqueueMail(
    trx,
    complianceRejectedEmail(
      { id: doc.dealerId, email: doc.email, fullName: doc.fullName },
      { kind: doc.kind, expiresOn: doc.expiresOn, reason },
      { publicUrl: ctx.config.publicUrl },
    ),
  );
}

/** POST /api/admin/compliance/documents/{id}/verify: only a pending document with a file, not expired. */
export function verifyComplianceDocument(ctx: Context & { user: User }, id: string) {
  return review(ctx, id, { status: 'verified', reason: null });
}

/** POST /api/admin/compliance/documents/{id}/reject: with a reason, emailed to the dealer. */
export async function rejectComplianceDocument(ctx: Context & { user: User }, id: string, reason: string) {
  const result = await review(ctx, id, { status: 'rejected', reason }, mailRejection);
  ctx.mail.kick();
  return result;
}

/** GET /api/admin/compliance/documents: pending documents, oldest first, 50 a page. */
export async function complianceQueue(ctx: Context, page: number) {
  const rows = await pendingComplianceDocuments(ctx.db, PAGE + 1, (page - 1) * PAGE);
  return {
    page,
    hasMore: rows.length > PAGE,
    documents: rows.slice(0, PAGE).map((r) => ({
      ...r,
      hasFile: r.fileName !== null,
      uploadedAt: r.createdAt.toISOString(),
      createdAt: undefined,
    })),
  };
}
