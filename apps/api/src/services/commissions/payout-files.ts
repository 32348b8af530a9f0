import { recruiterNets } from '@dn/db/queries/net-payable';
import {
  findPaymentSettings,
  findTaxThreshold,
  paidInYear,
  statementLines,
  upsertPaymentSettings,
  upsertTaxThreshold,
} from '@dn/db/queries/payees';
import { findPayout, payoutPayeesOf } from '@dn/db/queries/payouts';
import {
  defaultTaxThreshold,
  displayMoney,
  formatCents,
  PAYEE_MESSAGES,
  parseCents,
  type paymentSettingsInput,
  type payoutReturnInput,
  type taxThresholdInput,
} from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { csvLine } from '../../lib/csv';
import { open } from '../../lib/vault';
import { audit } from '../audit/audit';
import { type AchPayee, buildAchFile, buildCheckRegister, type CheckPayee } from '../payees/files';
import { ringOf } from '../payees/keys';
import * as ledger from './ledger';

/**
 * The files that pay a batch and the year-end tax report (issue 39; decisions 0962, 0963). The
 * bank file and the tax report carry full account numbers and TINs: owners only (their routes),
 * each download audited with who and when, never logged.
 */

type AdminContext = Context & { user: User };
type Address = { street: string; city: string; state: string; zipCode: string };

async function settingsOrRefuse(ctx: Context) {
  const s = await findPaymentSettings(ctx.db);
  if (!s) throw new AppError('CONFLICT', PAYEE_MESSAGES.noSettings);
  return s;
}

/**
 * A batch's lines split by payment method, from its payees as they were when it was created (issue
 * 45, decision 1020: payout_payees): a payee is in the ACH file or the check register, never both,
 * and a change of details after the batch does not reach it. The account numbers are opened only here.
 */
async function batchPayees(ctx: AdminContext, id: string) {
  const payout = await findPayout(ctx.db, id);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  const lines = await recruiterNets(ctx.db, { payoutId: id });
  const kept = new Map((await payoutPayeesOf(ctx.db, id)).map((p) => [p.recruiterDealerId, p]));
  const ach: (AchPayee & { dealerId: string })[] = [];
  const checks: (CheckPayee & { dealerId: string })[] = [];
  const missing: string[] = [];
  const ring = ringOf(ctx.config);
  for (const l of lines) {
    const p = kept.get(l.recruiterDealerId);
    if (!p) {
      missing.push(l.recruiterName);
      continue;
    }
    if (p.method === 'ach' && p.accountEnc && p.routingNumber) {
      ach.push({
        dealerId: l.recruiterDealerId,
        recruiterId: l.recruiterId,
        name: p.legalName,
        individual: p.individual,
        routingNumber: p.routingNumber,
        accountNumber: open(ring, p.accountEnc),
        accountType: p.accountType ?? 'checking',
        amount: l.amount,
      });
    } else {
      checks.push({
        dealerId: l.recruiterDealerId,
        recruiterId: l.recruiterId,
        name: p.legalName,
        address: JSON.parse(p.addressJson) as Address,
        amount: l.amount,
      });
    }
  }
  if (missing.length) throw new AppError('CONFLICT', `No payout details for ${missing.join(', ')}`);
  return { payout, ach, checks };
}

async function audited(ctx: AdminContext, eventType: string, message: string, details: Record<string, unknown>) {
  await audit(ctx.db, ctx, { eventType, category: 'admin', message, details });
}

/** GET /api/admin/payouts/{id}/ach: the NACHA file of the batch's direct-deposit payees. */
export async function achFile(ctx: AdminContext, id: string) {
  const settings = await settingsOrRefuse(ctx);
  const { payout, ach } = await batchPayees(ctx, id);
  const now = ctx.clock.now();
  const body = await buildAchFile(settings, ach, { now, reference: payout.id.slice(0, 8) });
  const total = ach.reduce((t, p) => t + (parseCents(p.amount) ?? 0n), 0n);
  await audited(ctx, 'payout.ach_downloaded', `${ctx.user.username} downloaded the ACH file of payout ${id}`, {
    payoutId: id,
    entries: ach.length,
    totalCents: total.toString(),
  });
  return { fileName: `payout-${payout.createdAt.toISOString().slice(0, 10)}-${id.slice(0, 8)}.ach.txt`, body };
}

/** GET /api/admin/payouts/{id}/checks: the check register of the batch's paper-check payees. */
export async function checkRegister(ctx: AdminContext, id: string) {
  const { payout, checks } = await batchPayees(ctx, id);
  await audited(ctx, 'payout.checks_downloaded', `${ctx.user.username} downloaded the check register of payout ${id}`, {
    payoutId: id,
    checks: checks.length,
  });
  return {
    fileName: `checks-${payout.createdAt.toISOString().slice(0, 10)}-${id.slice(0, 8)}.csv`,
    body: buildCheckRegister(id, checks),
  };
}

/** POST /api/admin/payouts/{id}/returns. */
export async function recordReturn(ctx: AdminContext, input: z.output<typeof payoutReturnInput>) {
  const r = await ctx.db.transaction().execute((trx) =>
    ledger.returnPayment(trx, ctx, {
      payoutId: input.id,
      recruiterDealerId: input.recruiterId,
      returnCode: input.returnCode,
      note: input.note ?? null,
    }),
  );
  ctx.mail.kick();
  return r;
}

const publicSettings = (s: Awaited<ReturnType<typeof findPaymentSettings>>) =>
  s
    ? {
        companyName: s.companyName,
        companyId: s.companyId,
        originatingRouting: s.originatingRouting,
        originatingBankName: s.originatingBankName,
        payerName: s.payerName,
        payerTin: s.payerTin,
        payerAddress: JSON.parse(s.payerAddressJson) as Address,
        updatedBy: s.updatedBy,
        updatedAt: s.updatedAt.toISOString(),
      }
    : null;

export async function getPaymentSettings(ctx: Context) {
  return publicSettings(await findPaymentSettings(ctx.db));
}

export async function setPaymentSettings(ctx: AdminContext, input: z.output<typeof paymentSettingsInput>) {
  return ctx.db.transaction().execute(async (trx) => {
    const { payerAddress, ...rest } = input;
    const row = await upsertPaymentSettings(
      trx,
      { ...rest, payerAddressJson: JSON.stringify(payerAddress), updatedBy: ctx.user.username },
      ctx.clock.now(),
    );
    await audit(trx, ctx, {
      eventType: 'payment_settings.updated',
      category: 'admin',
      message: `${ctx.user.username} updated the payment settings (${input.companyName}, company id ${input.companyId})`,
      details: {
        companyName: input.companyName,
        companyId: input.companyId,
        originatingRouting: input.originatingRouting,
      },
    });
    return publicSettings(row);
  });
}

/** The 1099-NEC threshold of a year: an owner's, or the law's (600.00 through 2025, 2,000.00 from 2026). */
export async function taxThreshold(ctx: Context, year: number) {
  const row = await findTaxThreshold(ctx.db, year);
  return { year, amount: row?.amount ?? defaultTaxThreshold(year), setByOwner: row !== undefined };
}

export async function setTaxThreshold(ctx: AdminContext, input: z.output<typeof taxThresholdInput>) {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await upsertTaxThreshold(trx, input.year, input.amount, ctx.user.username, ctx.clock.now());
    await audit(trx, ctx, {
      eventType: 'tax_threshold.updated',
      category: 'admin',
      message: `${ctx.user.username} set the ${input.year} 1099-NEC threshold to ${displayMoney(row.amount)}`,
      details: { year: input.year, amount: row.amount },
    });
    return { year: row.year, amount: row.amount, setByOwner: true };
  });
}

/**
 * GET /api/admin/tax/1099-nec?year=: every payee paid at least the year's threshold, in the columns
 * a 1099 e-filing service imports (decision 0963).
 */
export async function taxReport(ctx: AdminContext, year: number) {
  const settings = await settingsOrRefuse(ctx);
  const { amount: threshold } = await taxThreshold(ctx, year);
  const rows = await paidInYear(ctx.db, year, threshold);
  const ring = ringOf(ctx.config);
  const payer = JSON.parse(settings.payerAddressJson) as Address;
  const fmtTin = (digits: string, type: string | null) =>
    type === 'ein'
      ? `${digits.slice(0, 2)}-${digits.slice(2)}`
      : `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
  const header = [
    'Tax Year',
    'Payer Name',
    'Payer TIN',
    'Payer Address',
    'Payer City',
    'Payer State',
    'Payer ZIP',
    'Recipient Name',
    'Recipient TIN Type',
    'Recipient TIN',
    'Recipient Address',
    'Recipient City',
    'Recipient State',
    'Recipient ZIP',
    'Box 1 Nonemployee Compensation',
    'Recipient Email',
    'Details Missing',
  ];
  const body = [
    csvLine(header),
    ...rows.map((r) => {
      const a = r.addressJson ? (JSON.parse(r.addressJson) as Address) : null;
      return csvLine([
        String(year),
        settings.payerName,
        settings.payerTin,
        payer.street,
        payer.city,
        payer.state,
        payer.zipCode,
        r.legalName ?? r.fullName,
        r.tinType ? r.tinType.toUpperCase() : '',
        r.tinEnc ? fmtTin(open(ring, r.tinEnc), r.tinType) : '',
        a?.street ?? '',
        a?.city ?? '',
        a?.state ?? '',
        a?.zipCode ?? '',
        r.amount,
        r.email,
        r.tinEnc ? '' : 'yes',
      ]);
    }),
  ].join('');
  await audited(ctx, 'tax.report_downloaded', `${ctx.user.username} downloaded the ${year} 1099-NEC report`, {
    year,
    threshold,
    recipients: rows.length,
  });
  return { fileName: `1099-nec-${year}.csv`, body };
}

/** The signed-in recruiter's statement of a year: each payment, and the total. */
export async function ownStatement(ctx: Context & { user: User }, year: number) {
  const lines = await statementLines(ctx.db, ctx.user.id, year);
  const cents = formatCents(lines.reduce((t, l) => t + (parseCents(l.amount) ?? 0n), 0n));
  return {
    year,
    total: cents,
    payments: lines.map((l) => ({
      payoutId: l.payoutId,
      reference: l.reference,
      paidAt: new Date(l.paidAt).toISOString(),
      amount: l.amount,
      commissions: Number(l.entries),
    })),
  };
}

/** The statement as CSV (the portal's download). */
export async function ownStatementCsv(ctx: Context & { user: User }, year: number) {
  const s = await ownStatement(ctx, year);
  const body = [
    csvLine(['Paid on', 'Reference', 'Batch ID', 'Entries', 'Amount']),
    ...s.payments.map((p) =>
      csvLine([p.paidAt.slice(0, 10), p.reference ?? '', p.payoutId, String(p.commissions), p.amount]),
    ),
    csvLine(['Total', '', '', '', s.total]),
  ].join('');
  return { fileName: `statement-${s.year}.csv`, body };
}
