import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * The initial inventory (issue 38): the amounts each installer tier must pay (owner settings) and
 * the payments admins record against them. Amounts stay numeric; they are read as text.
 */

export type InstallerTier = 'Authorized' | 'Preferred';

export const inventorySettings = (db: Executor) =>
  db
    .selectFrom('onboardingSettings')
    .select([
      'tier',
      sql<string>`inventory_required::text`.as('inventoryRequired'),
      sql<string>`inventory_upfront::text`.as('inventoryUpfront'),
      'updatedBy',
      'updatedAt',
    ])
    .orderBy('tier')
    .execute();

export const updateInventorySettings = (
  db: Executor,
  tier: InstallerTier,
  v: { inventoryRequired: string; inventoryUpfront: string },
  by: string,
  at: Date,
) =>
  db
    .updateTable('onboardingSettings')
    .set({ inventoryRequired: v.inventoryRequired, inventoryUpfront: v.inventoryUpfront, updatedBy: by, updatedAt: at })
    .where('tier', '=', tier)
    .returning([
      'tier',
      sql<string>`inventory_required::text`.as('inventoryRequired'),
      sql<string>`inventory_upfront::text`.as('inventoryUpfront'),
    ])
    .executeTakeFirst();

const PAYMENT_COLUMNS = [
  'id',
  sql<string>`amount::text`.as('amount'),
  sql<string>`to_char(paid_on, 'YYYY-MM-DD')`.as('paidOn'),
  'reference',
  'recordedBy',
  'createdAt',
] as const;

export const insertInventoryPayment = (
  db: Executor,
  p: { dealerId: string; amount: string; paidOn: string; reference: string; recordedBy: string },
) => db.insertInto('inventoryPayments').values(p).returning(PAYMENT_COLUMNS).executeTakeFirstOrThrow();

export const inventoryPaymentsOf = (db: Executor, dealerId: string) =>
  db
    .selectFrom('inventoryPayments')
    .select(PAYMENT_COLUMNS)
    .where('dealerId', '=', dealerId)
    .orderBy('paidOn')
    .orderBy('createdAt')
    .execute();
