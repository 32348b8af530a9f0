import { Writable } from 'node:stream';
import { findAdminByUsername, insertAdmin, setAdminPassword } from '@dn/db/queries/accounts';
import { endSessionsOfUser } from '@dn/db/queries/sessions';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app';
import type { Deps } from '../src/context';
import type { Config } from '../src/env';
import type { Clock } from '../src/lib/clock';
import { hashPassword } from '../src/lib/password';
import type { RateLimits } from '../src/services/accounts/rate-limit';
import { startSmtp, type TestSmtp } from './smtp';

export const TEST_SECRET = 'test-session-secret-that-is-long-enough-0123456789';

/** The data encryption key of the tests (issue 39): 32 bytes in base64. */
export const TEST_DATA_KEY = Buffer.alloc(32, 7).toString('base64');

export function testConfig(over: Partial<Config> = {}): Config {
  return {
    nodeEnv: 'test',
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    dataDir: '/tmp/dn-unused',
    sessionSecret: TEST_SECRET,
    adminUsername: undefined,
    adminPassword: undefined,
    smtpUrl: undefined,
    mailFrom: 'Dealer Network <no-reply@test.local>',
    replyTo: undefined,
    publicUrl: 'https://dealers.test',
    trustProxy: undefined,
    logLevel: 'silent',
    webDist: undefined,
    rateLimitMultiplier: 1,
    databasePoolSize: 10,
    // Decisions are final at once unless a test opens an undo window: their emails go out on the next flush.
    undoWindowSec: 0,
    dataEncryptionKey: TEST_DATA_KEY,
    ...over,
  };
}

/** Limits high enough that tests sending many requests from one address are not refused. */
export const GENEROUS_LIMITS: RateLimits = {
  loginPerAccount: { max: 1_000, windowSec: 60 },
  loginPerIp: { max: 10_000, windowSec: 60 },
  resetPerAccount: { max: 1_000, windowSec: 60 },
  resetPerIp: { max: 10_000, windowSec: 60 },
  signupPerIp: { max: 10_000, windowSec: 60 },
  callPerIp: { max: 10_000, windowSec: 60 },
  trackPerIp: { max: 10_000, windowSec: 60 },
  typeaheadPerIp: { max: 10_000, windowSec: 60 },
  typeaheadPerIpDaily: { max: 10_000, windowSec: 60 },
  mailPerRecipient: { max: 10_000, windowSec: 60 },
};

export type TestApp = FastifyInstance & { deps: Deps };

export interface Harness {
  app: TestApp;
  database: TestDatabase;
  db: TestDatabase['db'];
  close(): Promise<void>;
}

/** A new database (PostgreSQL or PGlite, per TEST_DB) and an app on it. */
export async function createHarness(
  opts: { config?: Partial<Config>; limits?: Partial<RateLimits>; database?: TestDatabase; clock?: Clock } = {},
): Promise<Harness> {
  const database = opts.database ?? (await createTestDatabase());
  const app = await buildApp({
    config: testConfig(opts.config),
    database,
    limits: { ...GENEROUS_LIMITS, ...opts.limits },
    logger: false,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    async close() {
      await app.close();
      await app.deps.mail.stop();
      if (!opts.database) await database.close();
    },
  };
}

/**
 * An app on `database` whose log lines (JSON, at `info` unless the config says) are pushed to
 * `lines`: for the tests of what the logs carry.
 */
export async function appLoggingTo(
  database: TestDatabase,
  lines: string[],
  config: Partial<Config> = {},
  clock?: Clock,
): Promise<TestApp> {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({
    config: testConfig({ logLevel: 'info', ...config }),
    database,
    limits: GENEROUS_LIMITS,
    logger: { stream },
    ...(clock ? { clock } : {}),
  });
  await app.ready();
  return app;
}

/** The session cookie a response set, as a Cookie header value. */
export function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const c = list.find((v) => v.startsWith('dn.sid='));
  if (!c) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return c.split(';')[0]!;
}

let seq = 0;
export const uniqueEmail = (prefix = 'dealer') => `${prefix}.${Date.now().toString(36)}.${++seq}@example.com`;

export async function signInAdmin(app: TestApp, username = `admin${++seq}`, password = 'admin-password-1') {
  // upsertAdmin's effect (create, or set the password and end the admin's sessions), with the
  // process's one hash of that password (seedHash).
  const db = app.deps.db;
  const existing = await findAdminByUsername(db, username);
  if (existing) {
    await setAdminPassword(db, existing.id, await seedHash(password));
    await endSessionsOfUser(db, existing.id);
  } else await insertAdmin(db, username, await seedHash(password));
  const res = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.statusCode} ${res.body}`);
  return cookieOf(res);
}

export interface DealerSeed {
  email?: string;
  password?: string | null;
  status?: 'pending' | 'approved' | 'rejected' | 'active' | 'inactive' | 'suspended';
  tier?: 'Affiliate' | 'Authorized' | 'Preferred';
  fullName?: string;
  companyName?: string;
  referredBy?: string | null;
}

/**
 * The argon2 hash of a seeded account's password, made once per password and process: seeding a
 * dealer or an admin need not spend ~30 ms of CPU (argon2id, 19 MiB) each time on the same
 * password; hundreds of seeded accounts on two databases were a noticeable share of the suite's CPU.
 * Signing in still verifies against it, with the real argon2. A salt shared by seeded accounts
 * changes nothing a test checks (each hash still verifies only its password).
 */
const seedHashes = new Map<string, Promise<string>>();
export function seedHash(password: string): Promise<string> {
  let hash = seedHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    seedHashes.set(password, hash);
    // A refused hash (a test that fills the queue on purpose) is not kept.
    hash.catch(() => seedHashes.delete(password));
  }
  return hash;
}

/** Inserts a dealer directly (for tests of other features). */
export async function createDealer(db: Harness['db'], s: DealerSeed = {}) {
  const email = s.email ?? uniqueEmail();
  const row = await db
    .insertInto('dealers')
    .values({
      email,
      fullName: s.fullName ?? 'Test Dealer',
      companyName: s.companyName ?? 'Test Co',
      tier: s.tier ?? 'Affiliate',
      status: s.status ?? 'approved',
      phoneE164: '+15551234567',
      password: s.password === null ? null : await seedHash(s.password ?? 'dealer-pass-1'),
      accessGranted: s.password !== null,
      referredBy: s.referredBy ?? null,
      addressJson: JSON.stringify({
        street: '1 Main St',
        city: 'Austin',
        state: 'TX',
        zipCode: '78701',
        country: 'US',
      }),
      updatedAt: new Date(),
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  return { id: row.id, email: row.email, password: s.password ?? 'dealer-pass-1' };
}

export async function signInDealer(app: TestApp, email: string, password = 'dealer-pass-1') {
  const res = await app.inject({ method: 'POST', url: '/api/dealer/login', payload: { username: email, password } });
  if (res.statusCode !== 200) throw new Error(`dealer login failed: ${res.statusCode} ${res.body}`);
  return cookieOf(res);
}

/** POST /api/dealer/setup-password: sets a password from an emailed link (fields may be left out to test that). */
export function setupPassword(app: TestApp, payload: { token?: string; password?: string }) {
  return app.inject({ method: 'POST', url: '/api/dealer/setup-password', payload });
}

/** The referral count an affiliate link shows (kept by the signup and referral-link transactions). */
export async function totalReferralsOf(db: Harness['db'], where: { linkId: string } | { dealerId: string }) {
  const links = db.selectFrom('affiliateLinks').select('totalReferrals');
  const row = await ('linkId' in where
    ? links.where('id', '=', where.linkId)
    : links.where('dealerId', '=', where.dealerId)
  ).executeTakeFirstOrThrow();
  return row.totalReferrals;
}

/** A dealer's audit rows, only those of `eventType` when given. */
export function auditRowsOf(db: Harness['db'], dealerId: string, eventType?: string) {
  let q = db.selectFrom('auditLogs').selectAll().where('dealerId', '=', dealerId);
  if (eventType) q = q.where('eventType', '=', eventType);
  return q.execute();
}

/** A dealer's emails of one kind in the outbox (queued or sent). */
export function outboxOf(db: Harness['db'], dealerId: string, kind: string) {
  return db
    .selectFrom('emailOutbox')
    .select(['id', 'toAddress'])
    .where('dealerId', '=', dealerId)
    .where('kind', '=', kind)
    .execute();
}

export interface MailHarness extends Harness {
  /** A real SMTP server the app sends to. */
  smtp: TestSmtp;
}

/** A harness whose app sends its email to a real SMTP server started for it. */
export async function createMailHarness(opts: Parameters<typeof createHarness>[0] = {}): Promise<MailHarness> {
  const smtp = await startSmtp();
  const h = await createHarness({ ...opts, config: { ...opts.config, smtpUrl: smtp.url } });
  return {
    ...h,
    smtp,
    async close() {
      await h.close();
      await smtp.close();
    },
  };
}

/**
 * A harness for the tests of the file (or of the describe block) that calls this: started before
 * them (and before the beforeAll hooks declared after this call), closed after them. Read its
 * fields inside tests and hooks.
 */
function forFile<H extends Harness>(start: () => Promise<H>, timeoutMs?: number): H {
  let h: H | undefined;
  beforeAll(async () => {
    h = await start();
  }, timeoutMs);
  afterAll(async () => {
    await h?.close();
  });
  return new Proxy({} as H, {
    get(_, key) {
      if (!h) throw new Error('the harness starts in beforeAll: use it inside a test or a hook');
      return Reflect.get(h, key);
    },
  });
}

/** The test file's harness (see forFile). */
export function harnessForFile(opts: Parameters<typeof createHarness>[0] = {}, timeoutMs?: number): Harness {
  return forFile(() => createHarness(opts), timeoutMs);
}

/** The test file's mail harness (see forFile). */
export function mailHarnessForFile(opts: Parameters<typeof createHarness>[0] = {}, timeoutMs?: number): MailHarness {
  return forFile(() => createMailHarness(opts), timeoutMs);
}
