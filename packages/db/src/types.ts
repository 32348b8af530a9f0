import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DB } from './generated/tables';

/**
 * The tables' types come from the migrated schema (generated/tables.ts, written by `pnpm db:types`,
 * never by hand); what the schema cannot say (json shapes, numeric as strings, read-only columns)
 * is in column-types.ts. Here: the names the code imports.
 */

export type { Address, EmailAttachment } from './column-types';
export type {
  AdminActionKind,
  AdminRole,
  CommissionStatus,
  DB,
  DealerStatus,
  OrderSource,
  OrderStatus,
  Tier,
} from './generated/tables';

export type Dealer = Selectable<DB['dealers']>;
export type NewDealer = Insertable<DB['dealers']>;
export type DealerUpdate = Updateable<DB['dealers']>;
export type CallSchedule = Selectable<DB['callSchedules']>;
export type AffiliateLink = Selectable<DB['affiliateLinks']>;
export type LandingVideo = Selectable<DB['landingVideos']>;
export type FirstOrderForm = Selectable<DB['firstOrderForms']>;
export type AuditLog = Selectable<DB['auditLogs']>;
export type NewAuditLog = Insertable<DB['auditLogs']>;
export type EmailOutbox = Selectable<DB['emailOutbox']>;
export type Admin = Selectable<DB['admins']>;
export type Order = Selectable<DB['orders']>;
export type CommissionRule = Selectable<DB['commissionRules']>;
export type Payout = Selectable<DB['payouts']>;
export type PayoutProfile = Selectable<DB['payoutProfiles']>;
export type PaymentSettings = Selectable<DB['paymentSettings']>;
