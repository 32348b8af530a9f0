import { z } from 'zod';
import { requiredText, uuid } from './common';
import { dateField } from './onboarding';

/**
 * The installer's compliance documents (issue 45, decision 1010): the insurance certificate and the
 * contractor licence, uploaded as a file and checked by an owner or reviewer before they count.
 */

export const COMPLIANCE_DOCUMENT_KINDS = ['insurance', 'licence'] as const;
export type ComplianceDocumentKind = (typeof COMPLIANCE_DOCUMENT_KINDS)[number];
export const COMPLIANCE_DOCUMENT_STATUSES = ['pending', 'verified', 'rejected'] as const;
export type ComplianceDocumentStatus = (typeof COMPLIANCE_DOCUMENT_STATUSES)[number];

export const COMPLIANCE_KIND_LABELS: Record<ComplianceDocumentKind, string> = {
  insurance: 'Insurance certificate',
  licence: 'Contractor licence',
};

/** The file types a document may be, read from its bytes (never its name or declared type). */
export const COMPLIANCE_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type ComplianceFileType = (typeof COMPLIANCE_FILE_TYPES)[number];
/** The largest file accepted: 10 MB. */
export const MAX_COMPLIANCE_FILE_BYTES = 10 * 1024 * 1024;
/** Files a dealer may have waiting for review per kind (each up to 10 MB): a re-upload replaces none. */
export const MAX_PENDING_COMPLIANCE_FILES = 3;
/** The longest cover accepted, in years from today. */
export const MAX_COMPLIANCE_YEARS = 10;

export const COMPLIANCE_MESSAGES = {
  notMultipart: 'Send the document as multipart/form-data with the fields kind, expiresOn and file',
  fileRequired: 'Choose the certificate file to upload',
  oneFile: 'Upload one file at a time',
  fileTooLarge: 'The file is larger than 10 MB: upload a smaller PDF, PNG or JPEG',
  fileType: 'The file must be a PDF, PNG or JPEG',
  emptyFile: 'The file is empty',
  expiredOnUpload: 'The expiry date cannot be in the past',
  tooFarAhead: `The expiry date must be within ${MAX_COMPLIANCE_YEARS} years`,
  tooManyPending: `You already have ${MAX_PENDING_COMPLIANCE_FILES} documents of this kind waiting for review: wait for our team to check them`,
  notFound: 'Unknown document',
  noFile: 'This document has no file: the dealer must upload the certificate before it can be verified',
  alreadyReviewed: 'This document has already been reviewed',
  expiredOnReview: 'This document has expired: it cannot be verified',
  rejectReasonRequired: 'Give the dealer a reason',
} as const;

/** The text fields of POST /api/dealer/compliance/documents (multipart/form-data, beside `file`). */
export const complianceDocumentFields = z.object({
  kind: z.enum(COMPLIANCE_DOCUMENT_KINDS, { error: 'Kind must be insurance or licence' }),
  expiresOn: dateField('Expiry date'),
});
export type ComplianceDocumentFields = z.infer<typeof complianceDocumentFields>;

/** The OpenAPI shape of the upload (the file is a binary part). */
export const complianceDocumentUpload = complianceDocumentFields.extend({
  file: z
    .string()
    .max(MAX_COMPLIANCE_FILE_BYTES)
    .meta({ format: 'binary', description: 'The certificate: PDF, PNG or JPEG, at most 10 MB' }),
});

/** GET /api/dealer/compliance/documents/{id}/file, GET /api/admin/compliance/documents/{id}/file */
export const complianceDocumentId = z.object({ id: uuid(COMPLIANCE_MESSAGES.notFound) });

/** POST /api/admin/compliance/documents/{id}/verify */
export const verifyComplianceDocumentInput = complianceDocumentId;

/** POST /api/admin/compliance/documents/{id}/reject */
export const rejectComplianceDocumentInput = complianceDocumentId.extend({
  reason: requiredText(COMPLIANCE_MESSAGES.rejectReasonRequired, 500),
});
export type RejectComplianceDocumentInput = z.infer<typeof rejectComplianceDocumentInput>;

/** GET /api/admin/compliance/documents: the review queue, oldest first. */
export const complianceQueueQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
