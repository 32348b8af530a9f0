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
  /** owner, reviewer or viewer (issue 14); admins made before roles are owners. */
  role: Generated<AdminRole>;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export type AdminRole = 'owner' | 'reviewer' | 'viewer';

/** An owner's invitation of a new admin; its link is a magic-link token (purpose admin_invite). */
export interface AdminInvitationsTable {
  id: Generated<string>;
  email: string;
  role: AdminRole;
  invitedBy: string | null;
  acceptedAt: NullableTimestamp;
  createdAt: Generated<Date>;
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
  /** The earliest order date of any status (decision 0720); null before a first order. */
  firstOrderAt: NullableTimestamp;
  externalCrmId: string | null;
  uaHash: string | null;
  originalPayload: Json<unknown>;
  /** Lower-cased name, company and email, kept by PostgreSQL (migration 0980): what the admin's search matches. */
  searchText: ColumnType<string, never, never>;
  /**
   * The canonical mailbox of the email (migration 0880, `canonicalMailbox` of @dn/schema), kept by a
   * trigger and unique: one application per mailbox. Null only for a dealer stored before that
   * migration whose mailbox an older dealer holds.
   */
  mailbox: ColumnType<string | null, never, never>;
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
  status: ColumnType<CommissionStatus, CommissionStatus | undefined, CommissionStatus>;
  orderId: string | null;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
  /** Partner program (issue 13): a clawback is the one entry with a negative amount. */
  kind: ColumnType<'commission' | 'clawback', 'commission' | 'clawback' | undefined, 'commission' | 'clawback'>;
  recruiterDealerId: string | null;
  orderRef: string | null;
  ruleId: string | null;
  orderAmount: ColumnType<string | null, string | null | undefined, string | null>;
  orderedAt: NullableTimestamp;
  holdUntil: NullableTimestamp;
  voidReason: string | null;
  approvedBy: string | null;
  approvedAt: NullableTimestamp;
  payoutId: string | null;
  paidAt: NullableTimestamp;
}

export interface MagicLinkTokensTable {
  id: Generated<string>;
  /** SHA-256 (hex) of the token sent by email. */
  token: string;
  /** Null only for an admin invitation's token (then invitationId is set). */
  dealerId: string | null;
  invitationId: string | null;
  purpose: 'setup' | 'reset' | 'admin_invite';
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
  /** The admin action that caused it (issue 14): undo deletes it while it waits out the window. */
  actionId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The SHA-256 of the one-time link it carries (issue 12): a dead link makes it 'superseded'. */
  tokenHash: ColumnType<string | null, string | null | undefined, string | null>;
  status: ColumnType<'pending' | 'sending' | 'sent' | 'logged' | 'failed' | 'superseded', string | undefined, string>;
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

/**
 * A recruiter's affiliate-stats version in shards (migration 0950, decision 0790): kept by
 * triggers, read as the sum of a dealer's rows. Never written by the app.
 */
export interface ReferralVersionsTable {
  dealerId: string;
  shard: number;
  n: ColumnType<string, never, never>;
}

/**
 * The admin console's versions in shards (migration 0960, decision 0791): 'dealers' (dealers and
 * their links) and 'calls' (call requests), kept by triggers, read as the sum of a source's rows.
 * Never written by the app.
 */
export interface AdminVersionsTable {
  source: 'dealers' | 'calls';
  shard: number;
  n: ColumnType<string, never, never>;
}

/**
 * A device cookie a sign-in set (decision 0630, migration 0880): known while its row is here; the
 * 10 most recently used of an account are kept; revoked by a password change or reset and by "sign
 * out everywhere". Exactly one of dealerId and adminId is set.
 */
export interface AccountDevicesTable {
  /** SHA-256 (hex) of the cookie's random id; the id itself is not stored. */
  idHash: string;
  /** The account the cookie names: `dealer:<email>` or `admin:<username>`, lower-cased. */
  account: string;
  dealerId: string | null;
  adminId: string | null;
  /** A short name for the browser ("Firefox on Windows"), as the sessions list shows it. */
  device: string;
  createdAt: Generated<Date>;
  lastUsedAt: Generated<Date>;
}

export interface DB {
  accountDevices: AccountDevicesTable;
  admins: AdminsTable;
  adminInvitations: AdminInvitationsTable;
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
  adminActions: AdminActionsTable;
  adminActionItems: AdminActionItemsTable;
  adminPreferences: AdminPreferencesTable;
  rateLimits: RateLimitsTable;
  applicationStatusLinks: ApplicationStatusLinksTable;
  orders: OrdersTable;
  commissionRules: CommissionRulesTable;
  payouts: PayoutsTable;
  referralVersions: ReferralVersionsTable;
  adminVersions: AdminVersionsTable;
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

// Partner program (issue 13): orders, commission rules (versioned), payout batches.
export type OrderSource = 'admin' | 'webhook' | 'import';
export type OrderStatus = 'placed' | 'cancelled' | 'refunded';
export type CommissionStatus = 'pending' | 'approved' | 'paid' | 'voided' | 'cancelled';

export interface OrdersTable {
  id: Generated<string>;
  dealerId: string;
  source: OrderSource;
  externalOrderId: string;
  /** numeric(12,2) as a string: dollars and cents, never a float. */
  amount: ColumnType<string, string, string>;
  currency: Generated<'USD'>;
  orderedAt: Timestamp;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  recordedBy: string | null;
  createdAt: Generated<Date>;
  updatedAt: Timestamp;
}

export interface CommissionRulesTable {
  id: Generated<string>;
  tier: Tier;
  version: number;
  type: 'percent' | 'fixed';
  value: ColumnType<string, string, string>;
  appliesTo: 'first' | 'all';
  months: number | null;
  holdDays: number;
  createdBy: string | null;
  createdAt: Generated<Date>;
}

export interface PayoutsTable {
  id: Generated<string>;
  status: ColumnType<'created' | 'paid', 'created' | 'paid' | undefined, 'created' | 'paid'>;
  minimum: ColumnType<string, string, string>;
  total: ColumnType<string, string, string>;
  recruiterCount: number;
  commissionCount: number;
  reference: string | null;
  createdBy: string;
  createdAt: Generated<Date>;
  paidBy: string | null;
  paidAt: NullableTimestamp;
}

export type Order = Selectable<OrdersTable>;
export type CommissionRule = Selectable<CommissionRulesTable>;
export type Payout = Selectable<PayoutsTable>;

// Bulk review and undo (issue 14, docs/decisions/0620-bulk-review-and-undo.md).
export type AdminActionKind = 'approve' | 'reject' | 'status' | 'tier';

export interface AdminActionsTable {
  id: Generated<string>;
  adminId: string | null;
  adminUsername: string;
  kind: AdminActionKind;
  params: Json<Record<string, unknown>>;
  total: Generated<number>;
  changed: Generated<number>;
  skipped: ColumnType<Record<string, number>, string | undefined, string>;
  cursor: string | null;
  done: Generated<boolean>;
  undoUntil: Timestamp;
  undoneAt: NullableTimestamp;
  createdAt: Generated<Date>;
}

export interface AdminActionItemsTable {
  actionId: string;
  dealerId: string;
  beforeStatus: DealerStatus;
  beforeTier: Tier;
  beforeAccessGranted: boolean;
  beforeApprovalDate: NullableTimestamp;
  beforeApprovedBy: string | null;
  beforeRejectionReason: string | null;
  afterUpdatedAt: Timestamp;
}

export interface AdminPreferencesTable {
  adminId: string;
  exportColumns: Json<string[]> | null;
  updatedAt: Generated<Date>;
}

// Application status links (issue 15): only the token's SHA-256 is stored; revoked links answer 404.
export interface ApplicationStatusLinksTable {
  id: Generated<string>;
  dealerId: string;
  tokenHash: string;
  createdAt: Timestamp;
  revokedAt: NullableTimestamp;
  revokedBy: string | null;
}
