import { randomUUID } from 'node:crypto';
import { type DB, type Kysely, sql } from '@dn/db';

/**
 * One row (at least) in EVERY table of the schema (issue 46): what the backup round trip
 * (backup-roundtrip.int.test.ts) backs up and restores, on both databases. A new table must get an
 * entry here, or that test fails naming it.
 *
 * TO ADD A TABLE: add `table_name: async (db, ids) => { await db.insertInto('tableName').values({...}).execute(); }`
 * to EVERY_TABLE below, after the tables it refers to (the entries run in order). Use the ids of
 * `ids` for foreign keys. Tables a trigger or a migration fills (the kept counters, the seeded
 * settings) use `ensureRow`, which inserts only when the table is still empty.
 *
 * The values are chosen to be hard to carry through a text dump: tabs, newlines, backslashes,
 * quotes and non-ASCII in text, nested JSON with escapes, arrays with commas, quotes and NULLs,
 * numerics at their full precision, doubles with 15 digits, timestamps with microseconds, and the
 * identity columns (job_events.seq, webhook_deliveries.id) and serial ones (audit_logs.id) set.
 */

/** Text COPY must escape, in one value. */
export const AWKWARD = 'tab\there, line\nbreak, back\\slash, "quoted", \'single\', café ✓ 🚀, \\N, \\.';
/** A timestamp with microseconds. */
const MICROS = '2026-11-29 05:06:07.123456+00';
const LATER = '2027-01-02 03:04:05.654321+00';

export interface FixtureIds {
  admin: string;
  recruiter: string;
  dealer: string;
  installer: string;
  order: string;
  job: string;
  payout: string;
  action: string;
  invitation: string;
  tag: string;
}

export function fixtureIds(): FixtureIds {
  return {
    admin: randomUUID(),
    recruiter: randomUUID(),
    dealer: randomUUID(),
    installer: randomUUID(),
    order: randomUUID(),
    job: randomUUID(),
    payout: randomUUID(),
    action: randomUUID(),
    invitation: randomUUID(),
    tag: randomUUID().slice(0, 8),
  };
}

type Fill = (db: Kysely<DB>, ids: FixtureIds) => Promise<void>;

/** Inserts `insert`'s row only when `table` has none (a trigger's or a migration's row counts). */
async function ensureRow(db: Kysely<DB>, table: string, insert: () => Promise<unknown>): Promise<void> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
  if (r.rows[0]!.n === 0) await insert();
}

const dealer = (id: string, email: string, extra: Partial<Parameters<typeof dealerRow>[0]> = {}) =>
  dealerRow({ id, email, ...extra });

function dealerRow(v: {
  id: string;
  email: string;
  tier?: 'Affiliate' | 'Authorized' | 'Preferred';
  referredBy?: string | null;
  recruiterId?: string | null;
  status?: 'pending' | 'approved' | 'active';
}) {
  return {
    id: v.id,
    tier: v.tier ?? 'Affiliate',
    recruiterId: v.recruiterId ?? null,
    referredBy: v.referredBy ?? null,
    referralType: v.referredBy ? ('manual' as const) : null,
    fullName: `Jane ${AWKWARD}`,
    companyName: 'Roe & Sons, "Fans"',
    email: v.email,
    password: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
    phoneE164: '+15555550123',
    addressJson: JSON.stringify({ street: '1 Main St\tApt "2"', city: 'Lawrence', state: 'KS', zip: '66044' }),
    entityType: 'LLC' as const,
    licensedInstallers: true,
    crewCount: 3,
    productVerticals: ['attic, fans', 'say "hi"', 'back\\slash', 'ünïcode'],
    status: v.status ?? 'approved',
    accessGranted: true,
    approvalDate: MICROS,
    totalOrders: 2,
    totalRevenue: '9999999999.99',
    averageOrderValue: '12345678.91',
    originalPayload: JSON.stringify({ nested: { list: [1, 2.5, null, 'x\ny'], esc: 'a\\b"c' }, big: 12345678901234 }),
    createdAt: MICROS,
    updatedAt: LATER,
  };
}

/** Every table's fill, in an order that satisfies the foreign keys. Keys are the tables' SQL names. */
export const EVERY_TABLE: Record<string, Fill> = {
  admins: async (db, ids) => {
    await db
      .insertInto('admins')
      .values({
        id: ids.admin,
        username: `fixture-${ids.tag}`,
        fullName: AWKWARD,
        email: `fixture-${ids.tag}@example.com`,
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
        role: 'owner',
        createdAt: MICROS,
      })
      .execute();
  },
  dealers: async (db, ids) => {
    await db
      .insertInto('dealers')
      .values(
        dealer(ids.recruiter, `recruiter-${ids.tag}@example.com`, { tier: 'Preferred', recruiterId: `R-${ids.tag}` }),
      )
      .execute();
    await db
      .insertInto('dealers')
      .values(dealer(ids.dealer, `dealer-${ids.tag}@example.com`, { referredBy: ids.recruiter }))
      .execute();
    await db
      .insertInto('dealers')
      .values(dealer(ids.installer, `installer-${ids.tag}@example.com`, { tier: 'Authorized', status: 'active' }))
      .execute();
  },
  account_devices: async (db, ids) => {
    await db
      .insertInto('accountDevices')
      .values({ idHash: `dev-${ids.tag}`, account: 'dealer', dealerId: ids.dealer, device: AWKWARD })
      .execute();
  },
  admin_actions: async (db, ids) => {
    await db
      .insertInto('adminActions')
      .values({
        id: ids.action,
        adminId: ids.admin,
        adminUsername: `fixture-${ids.tag}`,
        kind: 'approve',
        params: JSON.stringify({ ids: [ids.dealer], note: AWKWARD }),
        skipped: JSON.stringify({ locked: 1 }),
        undoUntil: LATER,
      })
      .execute();
  },
  admin_action_items: async (db, ids) => {
    await db
      .insertInto('adminActionItems')
      .values({
        actionId: ids.action,
        dealerId: ids.dealer,
        beforeStatus: 'pending',
        beforeTier: 'Affiliate',
        beforeAccessGranted: false,
        beforeRejectionReason: AWKWARD,
        afterUpdatedAt: MICROS,
      })
      .execute();
  },
  admin_invitations: async (db, ids) => {
    await db
      .insertInto('adminInvitations')
      .values({ id: ids.invitation, email: `invited-${ids.tag}@example.com`, role: 'reviewer', invitedBy: ids.admin })
      .execute();
  },
  admin_preferences: async (db, ids) => {
    await db
      .insertInto('adminPreferences')
      .values({ adminId: ids.admin, exportColumns: JSON.stringify(['email', 'fullName']) })
      .execute();
  },
  admin_versions: async (db) => {
    await ensureRow(db, 'admin_versions', () =>
      // n is the trigger's own (read-only to the app's types).
      sql`insert into admin_versions (source, shard, n) values ('dealers', 0, 1)`.execute(db),
    );
  },
  affiliate_links: async (db, ids) => {
    await db
      .insertInto('affiliateLinks')
      .values({ recruiterId: `R-${ids.tag}`, dealerId: ids.recruiter, affiliateCode: `CODE-${ids.tag}` })
      .execute();
  },
  agreement_versions: async (db) => {
    await ensureRow(db, 'agreement_versions', () =>
      db
        .insertInto('agreementVersions')
        .values({ tier: 'Affiliate', version: 1, text: AWKWARD, textSha256: 'f'.repeat(64) })
        .execute(),
    );
  },
  agreement_signatures: async (db, ids) => {
    const version = await db
      .selectFrom('agreementVersions')
      .select(['tier', 'version', 'textSha256'])
      .orderBy('version')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('agreementSignatures')
      .values({
        dealerId: ids.dealer,
        tier: version.tier,
        version: version.version,
        textSha256: version.textSha256,
        signatureName: 'Jane Roe',
        ipAddress: '203.0.113.7',
        userAgent: AWKWARD,
      })
      .execute();
  },
  api_tokens: async (db, ids) => {
    await db
      .insertInto('apiTokens')
      .values({ adminId: ids.admin, name: 'Fixture', scope: 'read', tokenHash: `hash-${ids.tag}`, expiresAt: LATER })
      .execute();
  },
  app_settings: async (db, ids) => {
    await db
      .insertInto('appSettings')
      .values({ key: `fixture.${ids.tag}`, value: JSON.stringify({ text: AWKWARD, n: 1.5 }) })
      .execute();
  },
  application_status_links: async (db, ids) => {
    await db
      .insertInto('applicationStatusLinks')
      .values({ dealerId: ids.dealer, tokenHash: `status-${ids.tag}` })
      .execute();
  },
  audit_logs: async (db, ids) => {
    await db
      .insertInto('auditLogs')
      .values({
        eventType: 'fixture',
        dealerId: ids.dealer,
        message: AWKWARD,
        details: JSON.stringify({ before: null, after: { status: 'approved' }, esc: '\\u0041' }),
        userAgentParsed: JSON.stringify({ browser: 'Firefox' }),
        createdAt: MICROS,
      })
      .execute();
  },
  backup_runs: async (db) => {
    await db
      .insertInto('backupRuns')
      .values({
        trigger: 'manual',
        file: '/backups/fixture.dnbackup',
        bytes: '9007199254740993',
        schemaVersion: 'fixture',
        finishedAt: MICROS,
        encrypted: true,
        verifiedAt: MICROS,
      })
      .execute();
  },
  call_schedules: async (db, ids) => {
    await db
      .insertInto('callSchedules')
      .values({
        name: AWKWARD,
        email: `call-${ids.tag}@example.com`,
        phone: '+15555550124',
        preferredDate: '2026-12-01',
        preferredTime: 'morning',
        notes: AWKWARD,
      })
      .execute();
  },
  call_counts: async (db) => {
    await ensureRow(db, 'call_counts', () =>
      db.insertInto('callCounts').values({ status: 'scheduled', shard: 0, n: '1' }).execute(),
    );
  },
  commission_rules: async (db) => {
    await ensureRow(db, 'commission_rules', () =>
      db
        .insertInto('commissionRules')
        .values({ tier: 'Affiliate', version: 1, type: 'percent', value: '12.34', appliesTo: 'first' })
        .execute(),
    );
  },
  orders: async (db, ids) => {
    await db
      .insertInto('orders')
      .values({
        id: ids.order,
        dealerId: ids.dealer,
        source: 'admin',
        externalOrderId: `ORD-${ids.tag}`,
        amount: '1234567890.12',
        orderedAt: MICROS,
        statusAt: MICROS,
      })
      .execute();
  },
  order_events: async (db, ids) => {
    await db
      .insertInto('orderEvents')
      .values({ orderRef: ids.order, source: 'admin', status: 'placed', eventAt: MICROS, recordedBy: AWKWARD })
      .execute();
  },
  payouts: async (db, ids) => {
    await db
      .insertInto('payouts')
      .values({
        id: ids.payout,
        minimum: '25.00',
        total: '1234.56',
        recruiterCount: 1,
        commissionCount: 1,
        createdBy: 'fixture',
        heldJson: JSON.stringify([{ recruiterId: ids.recruiter, reason: AWKWARD }]),
      })
      .execute();
  },
  commissions: async (db, ids) => {
    const rule = await db.selectFrom('commissionRules').select('id').executeTakeFirstOrThrow();
    await db
      .insertInto('commissions')
      .values({
        recruiterId: `R-${ids.tag}`,
        referredDealerId: ids.dealer,
        recruiterDealerId: ids.recruiter,
        commissionType: 'first_order',
        amount: '1234.56',
        status: 'paid',
        orderRef: ids.order,
        ruleId: rule.id,
        orderAmount: '9876543210.98',
        orderedAt: MICROS,
        payoutId: ids.payout,
        paidAt: LATER,
      })
      .execute();
  },
  commission_totals: async (db) => {
    await ensureRow(db, 'commission_totals', () =>
      db
        .insertInto('commissionTotals')
        .values({ status: 'paid', kind: 'commission', shard: 0, n: '1', amount: '1234.56' })
        .execute(),
    );
  },
  recruiter_commission_totals: async (db, ids) => {
    await ensureRow(db, 'recruiter_commission_totals', () =>
      db
        .insertInto('recruiterCommissionTotals')
        .values({
          recruiterDealerId: ids.recruiter,
          month: '2026-11-01',
          status: 'paid',
          kind: 'commission',
          shard: 0,
          n: '1',
          amount: '1234.56',
        })
        .execute(),
    );
  },
  compliance_reminders: async (db, ids) => {
    await db
      .insertInto('complianceReminders')
      .values({ dealerId: ids.installer, document: 'insurance', expiresOn: '2027-01-31', daysBefore: 30 })
      .execute();
  },
  daily_digests: async (db) => {
    await db
      .insertInto('dailyDigests')
      .values({ businessDate: '2026-11-27', sentAt: MICROS, recipients: 2, pending: 3, overdue: 1 })
      .execute();
  },
  dealer_compliance: async (db, ids) => {
    await db
      .insertInto('dealerCompliance')
      .values({
        dealerId: ids.installer,
        insuranceCertUrl: 'https://example.com/cert.pdf?a=1&b=2',
        insurer: AWKWARD,
        insuranceExpiresOn: '2027-01-31',
        licenseNumber: 'LIC-1',
        licenseState: 'KS',
        licenseExpiresOn: '2028-02-29',
      })
      .execute();
  },
  dealer_counts: async (db) => {
    await ensureRow(db, 'dealer_counts', () =>
      db.insertInto('dealerCounts').values({ status: 'approved', tier: 'Affiliate', shard: 0, n: '1' }).execute(),
    );
  },
  email_outbox: async (db, ids) => {
    await db
      .insertInto('emailOutbox')
      .values({
        kind: 'fixture',
        toAddress: `mail-${ids.tag}@example.com`,
        subject: AWKWARD,
        textBody: AWKWARD,
        htmlBody: `<p>${AWKWARD}</p>`,
        attachments: JSON.stringify([{ filename: 'a.txt', content: 'aGVsbG8=', contentType: 'text/plain' }]),
        dealerId: ids.dealer,
        actionId: ids.action,
        status: 'sent',
        sentAt: MICROS,
        category: 'fixture_mail',
      })
      .execute();
  },
  email_preferences: async (db, ids) => {
    await db
      .insertInto('emailPreferences')
      .values({ address: `prefs-${ids.tag}@example.com`, category: 'reminders' })
      .execute();
  },
  email_suppressions: async (db, ids) => {
    await db
      .insertInto('emailSuppressions')
      .values({ address: `bounced-${ids.tag}@example.com`, reason: 'hard_bounce', detail: AWKWARD })
      .execute();
  },
  first_order_days: async (db) => {
    await ensureRow(db, 'first_order_days', () =>
      db.insertInto('firstOrderDays').values({ days: 12, dealers: '1', atStart: '0' }).execute(),
    );
  },
  first_order_forms: async (db) => {
    await ensureRow(db, 'first_order_forms', () =>
      db.insertInto('firstOrderForms').values({ tier: 'Affiliate', formUrl: 'https://example.com/f' }).execute(),
    );
  },
  homeowner_claims: async (db) => {
    await db
      .insertInto('homeownerClaims')
      .values({
        text: AWKWARD,
        kind: 'incentive',
        percent: '12.50',
        cap: '999999999.99',
        source: 'https://example.com/source',
        effectiveFrom: '2026-01-01',
        effectiveUntil: '2026-12-31',
        state: 'KS',
        zipPrefixes: ['660', '661', 'a,"b"', 'c\\d'],
      })
      .execute();
  },
  inventory_payments: async (db, ids) => {
    await db
      .insertInto('inventoryPayments')
      .values({
        dealerId: ids.installer,
        amount: '0.01',
        paidOn: '2026-11-28',
        reference: AWKWARD,
        recordedBy: 'fixture',
      })
      .execute();
  },
  jobs: async (db, ids) => {
    await db
      .insertInto('jobs')
      .values({
        id: ids.job,
        origin: 'dealer',
        sellerId: ids.dealer,
        installerId: ids.installer,
        status: 'installed',
        homeownerName: AWKWARD,
        homeownerEmail: `home-${ids.tag}@example.com`,
        homeownerPhone: '+15555550125',
        street: '1 Main St',
        city: 'Lawrence',
        state: 'KS',
        zipCode: '66044',
        latitude: 38.971669399999996, // 17 significant digits: float8 must keep them all
        longitude: -95.23525200000002,
        amount: '1234.56',
        installedAmount: '1234.57',
        notes: AWKWARD,
        scheduledFor: '2026-12-02',
        orderId: ids.order,
      })
      .execute();
  },
  job_offers: async (db, ids) => {
    await db
      .insertInto('jobOffers')
      .values({
        jobId: ids.job,
        dealerId: ids.installer,
        distanceMiles: '12.3',
        status: 'accepted',
        offeredAt: MICROS,
        expiresAt: LATER,
        respondedAt: LATER,
      })
      .execute();
  },
  job_events: async (db, ids) => {
    // seq is GENERATED ALWAYS AS IDENTITY (the column of issue 46's crash): two rows, numbered by the database.
    for (const kind of ['created', 'installed']) {
      await db
        .insertInto('jobEvents')
        .values({
          jobId: ids.job,
          kind,
          dealerId: ids.installer,
          actor: 'fixture',
          message: AWKWARD,
          createdAt: MICROS,
        })
        .execute();
    }
  },
  job_reviews: async (db, ids) => {
    await db
      .insertInto('jobReviews')
      .values({
        jobId: ids.job,
        installerId: ids.installer,
        rating: 4,
        comment: AWKWARD,
        publicConsent: true,
        createdAt: MICROS,
      })
      .execute();
  },
  job_versions: async (db, ids) => {
    // Written by the triggers on jobs and job_offers (migration 4200) when those rows go in first.
    await ensureRow(db, 'job_versions', () =>
      sql`insert into job_versions (dealer_id, shard, n) values (${ids.installer}, 0, 1)`.execute(db),
    );
  },
  // Kept by triggers (the review above wrote the installer's row): set to awkward values as they are.
  installer_scores: async (db, ids) => {
    const row = {
      score: '4.567',
      ratingAverage: '4.25',
      reviewCount: 7,
      offers: 9,
      accepted: 5,
      declined: 2,
      expired: 2,
      responseSeconds: 5432,
      expiredStreak: 2,
      computedAt: MICROS,
    };
    await db
      .insertInto('installerScores')
      .values({ dealerId: ids.installer, ...row })
      .onConflict((oc) => oc.column('dealerId').doUpdateSet(row))
      .execute();
  },
  installer_tier_medians: async (db) => {
    // One row a tier, which the app's hourly sweep may already have written (the drill starts the app).
    const row = { medianScore: '3.875', installers: 12, refreshedAt: MICROS };
    await db
      .insertInto('installerTierMedians')
      .values({ tier: 'Preferred', ...row })
      .onConflict((oc) => oc.column('tier').doUpdateSet(row))
      .execute();
  },
  landing_videos: async (db, ids) => {
    await ensureRow(db, 'landing_videos', () =>
      db
        .insertInto('landingVideos')
        .values({ videoKey: `video-${ids.tag}`, title: AWKWARD, vimeoEmbedCode: '<iframe src="x"></iframe>' })
        .execute(),
    );
  },
  magic_link_tokens: async (db, ids) => {
    await db
      .insertInto('magicLinkTokens')
      .values({ token: `token-${ids.tag}`, dealerId: ids.dealer, purpose: 'setup', expiresAt: LATER })
      .execute();
    await db
      .insertInto('magicLinkTokens')
      .values({ token: `invite-${ids.tag}`, invitationId: ids.invitation, purpose: 'admin_invite', expiresAt: LATER })
      .execute();
  },
  onboarding_calls: async (db, ids) => {
    await db
      .insertInto('onboardingCalls')
      .values({
        dealerId: ids.installer,
        callDate: '2026-12-03',
        callTime: '10:30',
        timeZone: 'America/Chicago',
        startsAt: MICROS,
        status: 'held',
        heldAt: LATER,
        markedBy: AWKWARD,
      })
      .execute();
  },
  onboarding_settings: async (db) => {
    await ensureRow(db, 'onboarding_settings', () =>
      db
        .insertInto('onboardingSettings')
        .values({ tier: 'Authorized', inventoryRequired: '5000.00', inventoryUpfront: '2500.00' })
        .execute(),
    );
  },
  payee_reminders: async (db, ids) => {
    await db.insertInto('payeeReminders').values({ dealerId: ids.recruiter, sentAt: MICROS }).execute();
  },
  payment_settings: async (db) => {
    await ensureRow(db, 'payment_settings', () =>
      db
        .insertInto('paymentSettings')
        .values({
          companyName: AWKWARD,
          companyId: '1234567890',
          originatingRouting: '011000015',
          originatingBankName: 'Bank',
          payerName: 'Payer',
          payerTin: 'v1:sealed-tin',
          payerAddressJson: JSON.stringify({ street: '1 Main St' }),
          updatedBy: 'fixture',
        })
        .execute(),
    );
  },
  payout_profiles: async (db, ids) => {
    await db
      .insertInto('payoutProfiles')
      .values({
        dealerId: ids.recruiter,
        legalName: AWKWARD,
        taxClassification: 'individual',
        tinType: 'ssn',
        tinEnc: 'v1:k1:bm9uY2U=:Y2lwaGVydGV4dA==',
        tinLast4: '6789',
        tinHash: `tin-${ids.tag}`,
        addressJson: JSON.stringify({ street: '1 Main St', city: 'Lawrence' }),
        method: 'ach',
        routingNumber: '011000015',
        accountEnc: 'v1:k1:bm9uY2U=:YWNjb3VudA==',
        accountLast4: '4321',
        accountHash: `acct-${ids.tag}`,
        accountType: 'checking',
        certifiedName: 'Jane Roe',
        certifiedAt: MICROS,
        certificationVersion: 'w9-2024',
      })
      .execute();
  },
  payout_returns: async (db, ids) => {
    await db
      .insertInto('payoutReturns')
      .values({
        payoutId: ids.payout,
        recruiterDealerId: ids.recruiter,
        returnCode: 'R01',
        note: AWKWARD,
        amount: '123456789012.34',
        createdBy: 'fixture',
      })
      .execute();
  },
  rate_limits: async (db, ids) => {
    await db
      .insertInto('rateLimits')
      .values({ key: `fixture:${ids.tag}`, count: 3, resetAt: LATER })
      .execute();
  },
  referral_flags: async (db, ids) => {
    await db
      .insertInto('referralFlags')
      .values({
        referredDealerId: ids.dealer,
        recruiterDealerId: ids.recruiter,
        signals: ['same_ip', 'same "phone"', 'a,b', 'c\\d'],
        reason: AWKWARD,
      })
      .execute();
  },
  referral_versions: async (db, ids) => {
    await ensureRow(db, 'referral_versions', () =>
      sql`insert into referral_versions (dealer_id, shard, n) values (${ids.recruiter}, 0, 1)`.execute(db),
    );
  },
  routing_settings: async (db) => {
    await ensureRow(db, 'routing_settings', () =>
      db.insertInto('routingSettings').values({ offerHours: 24 }).execute(),
    );
  },
  scheduled_sweeps: async (db, ids) => {
    await db
      .insertInto('scheduledSweeps')
      .values({ name: `fixture.${ids.tag}`, everySeconds: 3600, nextRunAt: LATER, lastError: AWKWARD })
      .execute();
  },
  service_areas: async (db, ids) => {
    // point is a generated column (of earthdistance's type): the backup leaves it out, the restore recomputes it.
    await db
      .insertInto('serviceAreas')
      .values({
        dealerId: ids.installer,
        zipCode: '66044',
        state: 'KS',
        latitude: 38.9716694,
        longitude: -95.235252,
        radiusMiles: 50,
        weeklyCapacity: 5,
        pausedUntil: LATER,
      })
      .execute();
  },
  sessions: async (db, ids) => {
    await db
      .insertInto('sessions')
      .values({
        sid: `sid-${ids.tag}`,
        sess: JSON.stringify({ cookie: { expires: LATER }, user: { id: ids.dealer, name: AWKWARD } }),
        expire: LATER,
      })
      .execute();
  },
  system_samples: async (db) => {
    await db
      .insertInto('systemSamples')
      .values({ takenAt: MICROS, figures: JSON.stringify({ mailWaiting: 3, mailOldestSeconds: 1.25 }) })
      .execute();
  },
  tax_thresholds: async (db) => {
    await ensureRow(db, 'tax_thresholds', () =>
      db.insertInto('taxThresholds').values({ year: 2026, amount: '600.00', updatedBy: 'fixture' }).execute(),
    );
  },
  webhook_deliveries: async (db, ids) => {
    // id is GENERATED ALWAYS AS IDENTITY (migration 2710).
    for (const statusCode of [200, 422]) {
      await db
        .insertInto('webhookDeliveries')
        .values({ webhookId: `wh-${ids.tag}-${statusCode}`, statusCode, result: AWKWARD, orderId: `ORD-${ids.tag}` })
        .execute();
    }
  },
  // Issue 45: an uploaded certificate (bytea: every byte value), a batch's payee snapshot, the
  // unrouted jobs waiting for the team's digest and the digest's last send.
  compliance_documents: async (db, ids) => {
    await db
      .insertInto('complianceDocuments')
      .values({
        dealerId: ids.installer,
        kind: 'insurance',
        status: 'verified',
        expiresOn: '2027-06-30',
        content: Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        contentType: 'application/pdf',
        fileName: 'certificate.pdf',
        sha256: 'a'.repeat(64),
        sizeBytes: 256,
        note: AWKWARD,
        reviewedAt: new Date('2026-11-29T10:11:12.345Z'),
        reviewedBy: ids.admin,
      })
      .execute();
  },
  payout_payees: async (db, ids) => {
    await db
      .insertInto('payoutPayees')
      .values({
        payoutId: ids.payout,
        recruiterDealerId: ids.recruiter,
        method: 'ach',
        legalName: AWKWARD,
        individual: true,
        addressJson: JSON.stringify({ street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' }),
        routingNumber: '011000015',
        accountType: 'checking',
        accountEnc: 'v1:k1:bm9uY2U=:Y2lwaGVydGV4dA==',
        accountLast4: '6789',
      })
      .execute();
  },
  unrouted_alerts: async (db, ids) => {
    await db
      .insertInto('unroutedAlerts')
      .values({ jobId: ids.job, queuedAt: new Date('2026-11-29T10:00:00.123Z') })
      .execute();
  },
  unrouted_digest: async (db) => {
    await ensureRow(db, 'unrouted_digest', () =>
      db
        .insertInto('unroutedDigest')
        .values({ lastSentAt: new Date('2026-11-29T09:45:00.5Z') })
        .execute(),
    );
  },
};

/** The tables no fixture fills: the migrations' own bookkeeping. */
export const NOT_BACKED_UP = ['kysely_migration', 'kysely_migration_lock'];

/** Runs every entry of EVERY_TABLE, in order; fails naming the entry whose insert did not go in. */
export async function fillEveryTable(db: Kysely<DB>, ids: FixtureIds = fixtureIds()): Promise<FixtureIds> {
  for (const [table, fill] of Object.entries(EVERY_TABLE)) {
    try {
      await fill(db, ids);
    } catch (err) {
      throw new Error(`every-table-fixture.ts: the entry for ${table} failed: ${(err as Error).message}`);
    }
  }
  return ids;
}

/**
 * What the round trip checks first: every table of the schema has an entry here and holds a row.
 * Resolves with the problems, each a sentence saying exactly what to add (empty: none).
 */
export async function everyTableProblems(db: Kysely<DB>): Promise<string[]> {
  const names = await sql<{ name: string }>`select c.relname::text as name from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by 1`.execute(db);
  const tables: { rows: { name: string; n: number }[] } = { rows: [] };
  for (const { name } of names.rows) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db);
    tables.rows.push({ name, n: r.rows[0]!.n });
  }
  const problems: string[] = [];
  for (const { name, n } of tables.rows) {
    if (NOT_BACKED_UP.includes(name)) continue;
    if (!(name in EVERY_TABLE)) {
      problems.push(
        `Table ${name} has no entry in apps/api/test/every-table-fixture.ts: add \`${name}: async (db, ids) => { await db.insertInto('${camel(name)}').values({ ... }).execute(); }\` to EVERY_TABLE (after the tables it refers to), so the backup round trip covers it`,
      );
    } else if (n === 0) {
      problems.push(`Table ${name} is still empty after the fixture: its entry in EVERY_TABLE must insert a row`);
    }
  }
  for (const name of Object.keys(EVERY_TABLE)) {
    if (!tables.rows.some((t) => t.name === name)) {
      problems.push(`EVERY_TABLE has an entry for ${name}, which is not a table of the schema: rename or remove it`);
    }
  }
  return problems;
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
