import { dealerAgreementPdfRoute, ownAgreementPdfRoute } from './agreement-pdf';
import { adminComplianceFileRoute, complianceUploadRoute, ownComplianceFileRoute } from './compliance-documents';
import { activityExportRoute, dealerExportRoute, payoutExportRoute } from './exports';
import { orderWebhookRoute } from './order-webhook';
import { achFileRoute, checkRegisterRoute, statementRoute, taxReportRoute } from './payees';
import { procedureRoutes } from './procedures';
import type { HttpRoute } from './route';
import { unsubscribePageRoute, unsubscribeRoute } from './unsubscribe';

export type { Access, HttpRoute } from './route';

/**
 * The routes that cannot be procedures, beside the generated ones (so OpenAPI and the security
 * suite see them): file downloads, and a webhook whose signature covers its raw body.
 */
export const handWrittenRoutes: HttpRoute[] = [
  dealerExportRoute,
  orderWebhookRoute,
  payoutExportRoute,
  activityExportRoute,
  ownAgreementPdfRoute,
  dealerAgreementPdfRoute,
  unsubscribePageRoute,
  unsubscribeRoute,
  achFileRoute,
  checkRegisterRoute,
  taxReportRoute,
  statementRoute,
  complianceUploadRoute,
  ownComplianceFileRoute,
  adminComplianceFileRoute,
];

/** The documented /api table: OpenAPI (http/openapi.ts) and the security suite read it. */
export const restRoutes: HttpRoute[] = [...procedureRoutes, ...handWrittenRoutes];
