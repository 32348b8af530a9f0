import { findDealerRecord } from '@dn/db/queries/accounts';
import {
  type InstallerTier,
  insertInventoryPayment,
  inventorySettings,
  updateInventorySettings,
} from '@dn/db/queries/inventory-payments';
import { DEALER_STATUSES, INSTALLER_TIERS, type InventoryPaymentInput, ONBOARDING_MESSAGES } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';

/**
 * The initial inventory (issue 38; decision 0953): what each installer tier pays (owner settings)
 * and the payments reviewers and owners record. Amounts are exact (numeric; strings on the wire).
 */

export async function recordInventoryPayment(ctx: Context & { user: User }, input: InventoryPaymentInput) {
  const dealer = await findDealerRecord(ctx.db, input.id, DEALER_STATUSES);
  if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
  if (!INSTALLER_TIERS.includes(dealer.tier)) throw new AppError('INVALID_INPUT', ONBOARDING_MESSAGES.notInstallerTier);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const p = await insertInventoryPayment(trx, {
      dealerId: dealer.id,
      amount: input.amount,
      paidOn: input.paidOn,
      reference: input.reference,
      recordedBy: ctx.user.username,
    });
    await audit(trx, ctx, {
      eventType: 'inventory_payment.recorded',
      category: 'admin',
      dealerId: dealer.id,
      message: `Initial inventory payment of ${p.amount} recorded (paid ${p.paidOn}, reference ${p.reference})`,
      details: { paymentId: p.id, amount: p.amount, paidOn: p.paidOn, reference: p.reference },
    });
    return p;
  });
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export async function listInventorySettings(ctx: Context) {
  const rows = await inventorySettings(ctx.db);
  return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
}

export async function setInventorySettings(
  ctx: Context & { user: User },
  input: { tier: InstallerTier; inventoryRequired: string; inventoryUpfront: string },
) {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await updateInventorySettings(trx, input.tier, input, ctx.user.username, ctx.clock.now());
    if (!row) throw new AppError('NOT_FOUND', 'Unknown tier');
    await audit(trx, ctx, {
      eventType: 'onboarding_settings.updated',
      category: 'admin',
      message: `${input.tier} initial inventory set to ${row.inventoryRequired} (${row.inventoryUpfront} upfront)`,
      details: { ...row },
    });
    return row;
  });
}
