import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** numeric columns travel as strings: money is never a float. */
type Numeric = ColumnType<string, string | number | undefined, string | number>;
type Json<T> = ColumnType<T, T | string | undefined, T | string>;

export type Tier = 'Affiliate' | 'Authorized' | 'Preferred';
export type DealerStatus = 'pending' | 'approved' | 'rejected' | 'active' | 'inactive' | 'suspended';

export interface Address {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

export interface AdminsTable {
  id: Generated<string>;
  username: string;
  fullName: Generated<string>;
  email: string | null;
  passwordHash: string;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface DealersTable {
  id: Generated<string>;
  tier: Tier;
  recruiterId: string | null;
  referredBy: string | null;
  referralType: 'automatic' | 'manual' | null;
  fullName: string;
  companyName: string | null;
  email: string;
  /** argon2id hash, never the password. */
  password: string | null;
  phoneE164: string;
  addressJson: Json<Address | null>;
  entityType: string | null;
  licensedInstallers: Generated<boolean>;
  crewCount: number | null;
  insuranceCertUrl: string | null;
  maintainInventory: Generated<boolean>;
  salesReps: number | null;
  monthlyVolume: number | null;
  crmName: string | null;
  permittingCapable: Generated<boolean>;
  homePerformance: Generated<boolean>;
  productVerticals: ColumnType<string[], string[] | undefined, string[]>;
  onboardingCallOk: Generated<boolean>;
  dealerAgreementUrl: string | null;
  logoUrl: string | null;
  status: ColumnType<DealerStatus, DealerStatus | undefined, DealerStatus>;
  accessGranted: Generated<boolean>;
  approvalDate: NullableTimestamp;
  approvedBy: string | null;
  rejectionReason: string | null;
  totalOrders: Generated<number>;
  totalRevenue: Numeric;
  lastOrderDate: NullableTimestamp;
  averageOrderValue: Numeric;
  externalCrmId: string | null;
  uaHash: string | null;
  originalPayload: Json<unknown>;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface CallSchedulesTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string;
  preferredDate: string;
  preferredTime: 'morning' | 'afternoon' | 'evening';
  status: ColumnType<'scheduled' | 'completed' | 'cancelled', 'scheduled' | 'completed' | 'cancelled' | undefined>;
  notes: string | null;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface AffiliateLinksTable {
  id: Generated<string>;
  recruiterId: string;
  dealerId: string;
  affiliateCode: string;
  totalReferrals: Generated<number>;
  isActive: Generated<boolean>;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface CommissionsTable {
  id: Generated<string>;
  recruiterId: string;
  referredDealerId: string;
  commissionType: string;
  amount: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  status: ColumnType<string, string | undefined, string>;
  orderId: string | null;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface MagicLinkTokensTable {
  id: Generated<string>;
  /** SHA-256 (hex) of the token sent by email. */
  token: string;
  dealerId: string;
  purpose: 'setup' | 'reset';
  expiresAt: Timestamp;
  used: Generated<boolean>;
  createdAt: Generated<Date>;
}

export interface LandingVideosTable {
  id: Generated<string>;
  videoKey: string;
  title: string;
  vimeoEmbedCode: string | null;
  isActive: Generated<boolean>;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface FirstOrderFormsTable {
  id: Generated<string>;
  tier: Tier;
  formUrl: string | null;
  isRequired: Generated<boolean>;
  updatedAt: Timestamp;
}

export interface AuditLogsTable {
  id: Generated<string>;
  eventType: string | null;
  category: string | null;
  recruiterId: string | null;
  dealerId: string | null;
  sessionId: string | null;
  userAgent: string | null;
  clientHash: string | null;
  message: string;
  details: Json<unknown>;
  success: Generated<boolean>;
  errorMessage: string | null;
  ipAddress: string | null;
  referrer: string | null;
  userAgentParsed: Json<unknown>;
  createdAt: Generated<Date>;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the session id in the cookie. */
  sid: string;
  sess: Json<Record<string, unknown>>;
  expire: Timestamp;
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface EmailOutboxTable {
  id: Generated<string>;
  kind: string;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  attachments: Json<EmailAttachment[]>;
  dealerId: string | null;
  status: ColumnType<'pending' | 'sending' | 'sent' | 'logged' | 'failed', string | undefined, string>;
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  lastError: string | null;
  createdAt: Generated<Date>;
  sentAt: NullableTimestamp;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  resetAt: Timestamp;
}

export interface DB {
  admins: AdminsTable;
  dealers: DealersTable;
  callSchedules: CallSchedulesTable;
  affiliateLinks: AffiliateLinksTable;
  commissions: CommissionsTable;
  magicLinkTokens: MagicLinkTokensTable;
  landingVideos: LandingVideosTable;
  firstOrderForms: FirstOrderFormsTable;
  auditLogs: AuditLogsTable;
  sessions: SessionsTable;
  emailOutbox: EmailOutboxTable;
  rateLimits: RateLimitsTable;
}

export type Dealer = Selectable<DealersTable>;
export type NewDealer = Insertable<DealersTable>;
export type DealerUpdate = Updateable<DealersTable>;
export type CallSchedule = Selectable<CallSchedulesTable>;
export type AffiliateLink = Selectable<AffiliateLinksTable>;
export type LandingVideo = Selectable<LandingVideosTable>;
export type FirstOrderForm = Selectable<FirstOrderFormsTable>;
export type AuditLog = Selectable<AuditLogsTable>;
export type NewAuditLog = Insertable<AuditLogsTable>;
export type EmailOutbox = Selectable<EmailOutboxTable>;
export type Admin = Selectable<AdminsTable>;
