import { payoutId, taxYearQuery } from '@dn/schema';
import { achFile, checkRegister, ownStatementCsv, taxReport } from '../services/commissions/payout-files';
import { csvDownload } from './csv';
import type { HttpRoute } from './route';

/**
 * Paying dealers' downloads (issue 39; decisions 0962, 0963). The bank file and the tax report hold
 * full account numbers and TINs: signed-in owners only (no API token, issue 45), never cached, each download audited by its service.
 */

const noStore = 'no-store';

export const achFileRoute: HttpRoute = {
  method: 'GET',
  url: '/api/admin/payouts/:id/ach',
  operationId: 'payouts.achFile',
  access: 'admin',
  role: 'owner',
  // Issue 45: full account numbers, for a signed-in owner only (no API token).
  sessionOnly: true,
  summary: "A payout batch's NACHA ACH file (PPD for individuals, CCD for businesses) of its direct-deposit payees",
  responds: 'text/plain NACHA file attachment',
  async handle({ req, reply, context }) {
    const { id } = payoutId.parse(req.params);
    const { fileName, body } = await achFile(await context(), id);
    return reply
      .header('content-type', 'text/plain; charset=us-ascii')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', noStore)
      .send(body);
  },
};

export const checkRegisterRoute = csvDownload({
  url: '/api/admin/payouts/:id/checks',
  operationId: 'payouts.checkRegister',
  role: 'owner',
  summary: "A payout batch's check register (paper-check payees): payee, address, amount, memo",
  params: payoutId,
  file: (ctx, _query, { id }) => checkRegister(ctx, id),
});

export const taxReportRoute = csvDownload({
  url: '/api/admin/tax/1099-nec',
  operationId: 'tax.report1099Nec',
  role: 'owner',
  // Issue 45: full TINs, for a signed-in owner only (no API token).
  sessionOnly: true,
  summary: 'The 1099-NEC report of a year (payer, recipient name, TIN, address, box 1) for payees at the threshold',
  input: taxYearQuery,
  file: (ctx, { year }) => taxReport(ctx, year),
});

export const statementRoute: HttpRoute = {
  method: 'GET',
  url: '/api/dealer/statement/download',
  operationId: 'payees.statementDownload',
  access: 'dealer',
  summary: "The signed-in recruiter's statement of a year's payments as CSV",
  input: taxYearQuery,
  responds: 'text/csv attachment',
  async handle({ req, reply, context }) {
    const { year } = taxYearQuery.parse(req.query ?? {});
    const { fileName, body } = await ownStatementCsv(await context(), year);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', noStore)
      .send(body);
  },
};
