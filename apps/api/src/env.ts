import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDatabaseUrl } from '@dn/db';
import { z } from 'zod';

/** The only reader of process.env. Bad configuration stops the start with the variable's name. */

/** A whole number from the environment, in [min, max]; every failure says so with the bounds. */
const wholeNumber = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  PORT: wholeNumber(0, 65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// connection string'),
  // Issue 46: migrations' own connection when DATABASE_URL goes through a pooler (optional).
  DATABASE_DIRECT_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// connection string'),
  /** Seconds a starting instance waits for another's migration before it gives up (issue 46). */
  MIGRATION_LOCK_WAIT_SECONDS: wholeNumber(1, 3600).default(300),
  DATA_DIR: z.string().min(1).default('./.data'),
  SESSION_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((v) => v || undefined),
  ADMIN_PASSWORD: z
    .string()
    .max(128)
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 8, 'must be at least 8 characters'),
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().default('Dealer Network <no-reply@dealer-network.local>'),
  REPLY_TO: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine(
      (v) => v === undefined || /^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(v),
      'must be an email address',
    ),
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || /^https?:\/\/[^/]+/.test(v),
      'must be an http(s) origin like https://dealers.example.com',
    ),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be fatal, error, warn, info, debug, trace or silent',
    })
    .optional(),
  WEB_DIST: z.string().optional(),
  RATE_LIMIT_MULTIPLIER: wholeNumber(1, 1000).default(1),
  /** Connections this process keeps to PostgreSQL (the embedded PGlite always uses one). */
  DATABASE_POOL_SIZE: wholeNumber(1, 200).default(10),
  /** Seconds an admin decision can be undone, and its emails wait (issue 14); 0 makes decisions final at once. */
  UNDO_WINDOW_SECONDS: wholeNumber(0, 300).default(10),
  // Standard Webhooks secret of POST /api/integrations/orders (docs/integrations.md); unset: the webhook refuses all.
  ORDERS_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(v),
      'must be whsec_ followed by base64 (at least 24 bytes)',
    ),
  /** Seconds between the durable scheduler's ticks (issue 38); the browser suite uses 1. */
  SCHEDULER_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /** Tests only (issue 38): a file holding the clock's offset in ms; refused in production without ALLOW_TEST_CLOCK=1. */
  TEST_CLOCK_FILE: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  ALLOW_TEST_CLOCK: z.enum(['0', '1']).optional(),
  /** Outgoing mail (issue 40): pooled SMTP connections, at most this many open at once. */
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(5),
  /** The mail provider's rate: at most this many messages a second (unset: as fast as the pool sends). */
  SMTP_RATE_PER_SECOND: z.coerce.number().int().min(1).max(10_000).optional(),
  /** DKIM signing (issue 40): all three or none; the key as PEM (\n escapes allowed). */
  DKIM_PRIVATE_KEY: z
    .string()
    .optional()
    .transform((v) => v?.replace(/\\n/g, '\n').trim() || undefined)
    .refine((v) => v === undefined || /-----BEGIN (RSA )?PRIVATE KEY-----/.test(v), 'must be a PEM private key'),
  DKIM_DOMAIN: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(v), 'must be a domain name'),
  DKIM_SELECTOR: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || /^[a-z0-9._-]+$/i.test(v), 'must be a DNS label'),
  // Issue 40: the bearer token of GET /metrics; unset, /metrics answers 404 to everyone.
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 24, 'must be at least 24 characters (e.g. openssl rand -hex 24)')
    .refine((v) => v === undefined || /^[\x21-\x7e]+$/.test(v), 'must be printable ASCII without spaces'),
  // Issue 40: a folder for the daily backup (scheduled when set), and how many of them to keep.
  BACKUP_DIR: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined),
  BACKUP_KEEP: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || /^\d+$/.test(v), 'must be a whole number of backups to keep (1 to 365)')
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .refine((v) => v === undefined || (v >= 1 && v <= 365), 'must be between 1 and 365'),
  // Issue 39 (decision 0961): the AES-256-GCM key of TINs and account numbers, 32 bytes in base64; the
  // old keys (comma separated) only while `pnpm keys:rotate` moves values to the new one.
  DATA_ENCRYPTION_KEY: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine(
      (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
      'must be 32 random bytes in base64 (openssl rand -base64 32)',
    ),
  // Issue 46 (decision 1030): the key backups are encrypted with (AES-256-GCM), 32 bytes in base64;
  // unset, the data encryption key. Kept apart so a backup can be read without the live key file.
  BACKUP_ENCRYPTION_KEY: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine(
      (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
      'must be 32 random bytes in base64 (openssl rand -base64 32)',
    ),
  DATA_ENCRYPTION_KEYS_OLD: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .refine((v) => v.every((k) => Buffer.from(k, 'base64').length === 32), 'each must be 32 random bytes in base64'),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** DATABASE_URL as pg takes it: `?pgbouncer=true` removed (it sets databaseTransactionPooler). */
  databaseUrl: string | undefined;
  /** DATABASE_URL names a transaction-mode pooler (`?pgbouncer=true`; issue 46). */
  databaseTransactionPooler?: boolean | undefined;
  /** DATABASE_DIRECT_URL: PostgreSQL itself, for migrations (and their lock) when DATABASE_URL is a pooler. */
  databaseDirectUrl?: string | undefined;
  /** Seconds to wait for another instance's migration (MIGRATION_LOCK_WAIT_SECONDS). */
  migrationLockWaitSec?: number | undefined;
  dataDir: string;
  sessionSecret: string;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where replies go, on the emails that ask for one (REPLY_TO; issue 36). Unset: those emails do not ask. */
  replyTo: string | undefined;
  publicUrl: string;
  /** Addresses of proxies whose X-Forwarded-For is believed (comma separated), or undefined. */
  trustProxy: string | undefined;
  logLevel: string;
  webDist: string | undefined;
  /** Multiplies every rate limit's budget: for test environments that send many requests from one address. */
  rateLimitMultiplier: number;
  /** Connections to PostgreSQL in this process's pool (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** Secret of the signed orders webhook, in its whsec_ form; undefined: the webhook refuses every call. */
  ordersWebhookSecret?: string | undefined;
  /** Seconds an admin decision can be undone (issue 14); undefined: UNDO_WINDOW_SECONDS of @dn/schema. */
  undoWindowSec?: number | undefined;
  /** Seconds between the scheduler's ticks (SCHEDULER_INTERVAL_SECONDS); undefined: 15. */
  schedulerIntervalSec?: number | undefined;
  /** The test clock's offset file (TEST_CLOCK_FILE, lib/clock.ts FileClock); undefined: the system clock. */
  testClockFile?: string | undefined;
  /** Pooled SMTP connections (SMTP_MAX_CONNECTIONS); undefined: 5. */
  smtpMaxConnections?: number | undefined;
  /** Messages a second at most (SMTP_RATE_PER_SECOND); undefined: no limit. */
  smtpRatePerSecond?: number | undefined;
  /** DKIM signing of every message (DKIM_*), or undefined. */
  dkim?: { domainName: string; keySelector: string; privateKey: string } | undefined;
  /** The bearer token of GET /metrics (METRICS_TOKEN); undefined: /metrics answers 404 (issue 40). */
  metricsToken?: string | undefined;
  /** Where the scheduled daily backup is written (BACKUP_DIR); undefined: no scheduled backup. */
  backupDir?: string | undefined;
  /** How many scheduled backups BACKUP_DIR keeps (BACKUP_KEEP, default 7). */
  backupKeep?: number | undefined;
  /** The data encryption key (DATA_ENCRYPTION_KEY, base64) and older keys still accepted for reading (issue 39). */
  dataEncryptionKey?: string | undefined;
  dataEncryptionKeysOld?: string[] | undefined;
  /** The backup key (BACKUP_ENCRYPTION_KEY, base64); undefined: backups use the data encryption key (issue 46). */
  backupEncryptionKey?: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Backups a BACKUP_DIR keeps when BACKUP_KEEP is unset. */
export const DEFAULT_BACKUP_KEEP = 7;

/**
 * Parses the environment once; a bad setting throws a ConfigError naming every variable at fault.
 * `check` (pnpm start --check) validates without side effects: no session secret is written.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { check?: boolean } = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // The rules between settings, each naming its variable; all of them are reported at once.
  const problems: string[] = [];
  if ((e.ADMIN_USERNAME && !e.ADMIN_PASSWORD) || (!e.ADMIN_USERNAME && e.ADMIN_PASSWORD)) {
    problems.push('ADMIN_USERNAME and ADMIN_PASSWORD must be set together');
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    problems.push('DATABASE_DIRECT_URL: needs DATABASE_URL (it is the direct connection beside a pooled DATABASE_URL)');
  }
  if (e.DATABASE_DIRECT_URL && pgbouncerFlag(e.DATABASE_DIRECT_URL)) {
    problems.push(
      'DATABASE_DIRECT_URL: must reach PostgreSQL directly, not a transaction-mode pooler (?pgbouncer=true)',
    );
  }
  if (e.BACKUP_KEEP !== undefined && !e.BACKUP_DIR) {
    problems.push('BACKUP_KEEP: needs BACKUP_DIR, the folder the backups are kept in');
  }
  const dkimSet = [e.DKIM_PRIVATE_KEY, e.DKIM_DOMAIN, e.DKIM_SELECTOR].filter((v) => v !== undefined).length;
  if (dkimSet !== 0 && dkimSet !== 3) {
    problems.push('DKIM_PRIVATE_KEY, DKIM_DOMAIN and DKIM_SELECTOR must be set together');
  }
  if (e.NODE_ENV === 'production') {
    const placeholders = [
      ['SESSION_SECRET', e.SESSION_SECRET],
      ['ADMIN_PASSWORD', e.ADMIN_PASSWORD],
      ['METRICS_TOKEN', e.METRICS_TOKEN],
      ['DATABASE_URL', databasePassword(e.DATABASE_URL)],
    ].filter(([, value]) => value !== undefined && isPlaceholder(value));
    for (const [name] of placeholders) {
      problems.push(`${name}: is a placeholder or well-known value; set a real secret (e.g. openssl rand -hex 32)`);
    }
    if (!e.SESSION_SECRET && e.DATABASE_URL) {
      // Several instances share one database: each must sign cookies with the same secret.
      problems.push('SESSION_SECRET: required in production with DATABASE_URL (at least 32 characters)');
    }
    if (!e.DATA_ENCRYPTION_KEY && e.DATABASE_URL) {
      // Every instance must read what the others sealed (issue 39, decision 0961).
      problems.push('DATA_ENCRYPTION_KEY: required in production with DATABASE_URL (openssl rand -base64 32)');
    }
  }
  if (e.TEST_CLOCK_FILE && e.NODE_ENV === 'production' && e.ALLOW_TEST_CLOCK !== '1') {
    problems.push(
      'TEST_CLOCK_FILE: a test clock shifts every date the product acts on; refused in production unless ALLOW_TEST_CLOCK=1',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const dataDir = resolve(e.DATA_DIR);
  let sessionSecret = e.SESSION_SECRET;
  if (!sessionSecret) {
    sessionSecret = opts.check ? 'x'.repeat(32) : persistedSecret(dataDir);
  }
  let dataEncryptionKey = e.DATA_ENCRYPTION_KEY;
  if (!dataEncryptionKey) {
    // The embedded default keeps its key in the data folder, as the session secret (never written by --check).
    dataEncryptionKey = opts.check
      ? randomBytes(32).toString('base64')
      : persistedSecret(dataDir, 'data-encryption-key', () => randomBytes(32).toString('base64'));
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ? withoutPgbouncerFlag(e.DATABASE_URL) : undefined,
    databaseTransactionPooler: e.DATABASE_URL ? pgbouncerFlag(e.DATABASE_URL) : false,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    migrationLockWaitSec: e.MIGRATION_LOCK_WAIT_SECONDS,
    dataDir,
    sessionSecret,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    replyTo: e.REPLY_TO,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    webDist: e.WEB_DIST,
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    ordersWebhookSecret: e.ORDERS_WEBHOOK_SECRET,
    undoWindowSec: e.UNDO_WINDOW_SECONDS,
    schedulerIntervalSec: e.SCHEDULER_INTERVAL_SECONDS,
    testClockFile: e.TEST_CLOCK_FILE,
    smtpMaxConnections: e.SMTP_MAX_CONNECTIONS,
    smtpRatePerSecond: e.SMTP_RATE_PER_SECOND,
    dkim:
      e.DKIM_PRIVATE_KEY && e.DKIM_DOMAIN && e.DKIM_SELECTOR
        ? { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKey: e.DKIM_PRIVATE_KEY }
        : undefined,
    metricsToken: e.METRICS_TOKEN,
    backupDir: e.BACKUP_DIR ? resolve(e.BACKUP_DIR) : undefined,
    backupKeep: e.BACKUP_DIR ? (e.BACKUP_KEEP ?? DEFAULT_BACKUP_KEEP) : undefined,
    dataEncryptionKey,
    dataEncryptionKeysOld: e.DATA_ENCRYPTION_KEYS_OLD,
    backupEncryptionKey: e.BACKUP_ENCRYPTION_KEY,
  };
}

/**
 * Values shipped in examples, old compose files and tutorials: refused in production, because
 * whoever has read them has the credential. Compared without case, spaces, dashes or underscores.
 */
export const PLACEHOLDER_SECRETS = [
  'change-me-now',
  'change-me',
  'change-me-to-a-long-random-string-of-48-chars',
  'changeit',
  'password',
  'password1',
  'admin',
  'admin123',
  'administrator',
  'secret',
  'dealer',
  'postgres',
  'root',
  'test',
  'letmein',
  'qwerty',
  '12345678',
  '123456789',
  'example',
];
const squash = (v: string) => v.toLowerCase().replace(/[\s_-]+/g, '');
const PLACEHOLDER_SET = new Set(PLACEHOLDER_SECRETS.map(squash));

export function isPlaceholder(value: string): boolean {
  const v = squash(value);
  // Any "change me ..." / "replace with ..." / "your secret here" style value.
  return PLACEHOLDER_SET.has(v) || /^(changeme|replaceme|replacewith|yoursecret|yourpassword)/.test(v);
}

/** Whether a postgres:// URL says it goes through a transaction-mode pooler (`?pgbouncer=true`). */
function pgbouncerFlag(url: string): boolean {
  try {
    return parseDatabaseUrl(url).transactionPooler;
  } catch {
    return false;
  }
}

/** The URL without its `pgbouncer` parameter (libpq's pg_dump and psql refuse an unknown one). */
function withoutPgbouncerFlag(url: string): string {
  try {
    return parseDatabaseUrl(url).connectionString;
  } catch {
    return url;
  }
}

/** The password in a postgres:// URL, if it has one. */
function databasePassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password || undefined;
  } catch {
    return undefined;
  }
}

/** Generated once and kept in the data folder, so sessions survive restarts of the embedded setup. */
function persistedSecret(
  dataDir: string,
  name = 'session-secret',
  make = () => randomBytes(48).toString('base64url'),
): string {
  const file = join(dataDir, name);
  if (existsSync(file)) {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = make();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
