import { dealerId, uuid } from '@dn/schema';
import { z } from 'zod';
import type { Context, User } from '../context';
import { signedAgreementPdf } from '../services/onboarding/agreement';
import type { HttpRoute } from './route';

/**
 * The signed dealer agreement as a PDF (issue 38): a file, not a procedure's JSON answer. Made from
 * the stored signature each time (services/onboarding/agreement-pdf.ts). `?signature=<id>` picks an
 * older signature; without it, the latest.
 */

const pdfQuery = z.object({ signature: uuid('Unknown signature').optional() });

async function sendPdf(
  reply: Parameters<HttpRoute['handle']>[0]['reply'],
  ctx: Context & { user: User },
  dealer: string,
  signature: string | null,
) {
  const { fileName, body } = await signedAgreementPdf(ctx, dealer, signature);
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(body);
}

export const ownAgreementPdfRoute: HttpRoute = {
  method: 'GET',
  url: '/api/dealer/agreement/pdf',
  operationId: 'onboarding.ownAgreementPdf',
  access: 'dealer',
  summary: 'The signed dealer agreement as a PDF (the latest signature, or ?signature=<id>)',
  input: pdfQuery,
  responds: 'application/pdf attachment',
  async handle({ req, reply, context }) {
    const query = pdfQuery.parse(req.query ?? {});
    const ctx = await context();
    return sendPdf(reply, ctx, ctx.user.id, query.signature ?? null);
  },
};

/** Reviewer and up: the record holds the dealer's IP and user agent (decision 0610). */
export const dealerAgreementPdfRoute: HttpRoute = {
  method: 'GET',
  url: '/api/admin/dealers/:id/agreement/pdf',
  operationId: 'onboarding.dealerAgreementPdf',
  access: 'admin',
  role: 'reviewer',
  summary: 'A dealer’s signed agreement as a PDF (the latest signature, or ?signature=<id>)',
  input: pdfQuery,
  responds: 'application/pdf attachment',
  async handle({ req, reply, context }) {
    const { id } = dealerId.parse(req.params);
    const query = pdfQuery.parse(req.query ?? {});
    return sendPdf(reply, await context(), id, query.signature ?? null);
  },
};
