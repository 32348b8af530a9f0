import {
  COMPLIANCE_MESSAGES,
  complianceDocumentFields,
  complianceDocumentId,
  complianceDocumentUpload,
  MAX_COMPLIANCE_FILE_BYTES,
} from '@dn/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context, User } from '../context';
import { AppError } from '../lib/app-error';
import { complianceFile, uploadComplianceDocument } from '../services/onboarding/documents';
import type { HttpRoute } from './route';

/**
 * The installer's compliance documents as files (issue 45, decision 1010): the upload is
 * multipart/form-data (not a procedure's JSON), the download a file. The upload's parts are read here
 * and the service gets the fields, the file's name and its bytes; the service decides the file's
 * type from those bytes. A download is always an attachment, never sniffed, never cached.
 */

/** The upload's text fields and its one file, or a 400/413 with what is wrong (nothing is stored). */
async function readUpload(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.notMultipart);
  const fields: Record<string, string> = {};
  let file: { name: string; content: Buffer } | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.fieldname !== 'file') throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.fileRequired);
        file = { name: part.filename ?? '', content };
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new UploadTooLarge();
    if (code === 'FST_FILES_LIMIT') throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.oneFile);
    throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.notMultipart);
  }
  const parsed = complianceDocumentFields.parse(fields);
  if (!file) {
    throw new AppError('INVALID_INPUT', COMPLIANCE_MESSAGES.fileRequired, {
      fieldErrors: { file: COMPLIANCE_MESSAGES.fileRequired },
    });
  }
  return { ...parsed, fileName: file.name, content: file.content };
}

/** 413: the file is over 10 MB (answered with its own message, as Fastify's errors are). */
class UploadTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_REQ_FILE_TOO_LARGE';
  constructor() {
    super(COMPLIANCE_MESSAGES.fileTooLarge);
  }
}

export const complianceUploadRoute: HttpRoute = {
  method: 'POST',
  url: '/api/dealer/compliance/documents',
  operationId: 'onboarding.uploadComplianceDocument',
  access: 'dealer',
  summary:
    'Uploads an insurance certificate or contractor licence (multipart/form-data: kind = insurance or licence, expiresOn, file = PDF, PNG or JPEG up to 10 MB, its type read from its bytes); 201 with the pending document',
  input: complianceDocumentUpload,
  multipart: { fileSize: MAX_COMPLIANCE_FILE_BYTES },
  errors: {
    '403': 'Affiliates have no compliance documents',
    '409': 'Already 3 documents of this kind waiting for review',
    '413': 'The file is over 10 MB: nothing is stored',
  },
  async handle({ req, reply, context }) {
    const ctx = await context();
    const upload = await readUpload(req);
    const doc = await uploadComplianceDocument(ctx, upload);
    return reply.code(201).send(doc);
  },
};

async function sendFile(reply: FastifyReply, ctx: Context & { user: User }, id: string) {
  const file = await complianceFile(ctx, id);
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .header('digest', `sha-256=${Buffer.from(file.sha256 ?? '', 'hex').toString('base64')}`)
    .send(file.content);
}

export const ownComplianceFileRoute: HttpRoute = {
  method: 'GET',
  url: '/api/dealer/compliance/documents/:id/file',
  operationId: 'onboarding.ownComplianceFile',
  access: 'dealer',
  summary: 'One of the dealer’s own compliance documents, as the uploaded file (an attachment)',
  responds: 'The file (application/pdf, image/png or image/jpeg) as an attachment',
  errors: { '404': 'No such document of this dealer' },
  async handle({ req, reply, context }) {
    const { id } = complianceDocumentId.parse(req.params);
    return sendFile(reply, await context(), id);
  },
};

/** Reviewer and up, as the review itself (decision 1010). */
export const adminComplianceFileRoute: HttpRoute = {
  method: 'GET',
  url: '/api/admin/compliance/documents/:id/file',
  operationId: 'onboarding.complianceFile',
  access: 'admin',
  role: 'reviewer',
  summary: 'A dealer’s compliance document, as the uploaded file (an attachment), to check it',
  responds: 'The file (application/pdf, image/png or image/jpeg) as an attachment',
  errors: { '404': 'No such document, or it has no file (a date typed before documents were required)' },
  async handle({ req, reply, context }) {
    const { id } = complianceDocumentId.parse(req.params);
    return sendFile(reply, await context(), id);
  },
};
