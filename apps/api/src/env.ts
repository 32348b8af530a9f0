import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** The only reader of process.env. Bad configuration stops the start with the variable's name. */

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// connection string'),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  WEB_DIST: z.string().optional(),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1000).default(1),
  /** Connections this process keeps to PostgreSQL (the embedded PGlite always uses one). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Seconds an admin decision can be undone, and its emails wait (issue 14); 0 makes decisions final at once. */
  UNDO_WINDOW_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  // Standard Webhooks secret of POST /api/integrations/orders (docs/integrations.md); unset: the webhook refuses all.
  ORDERS_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(v),
      'must be whsec_ followed by base64 (at least 24 bytes)',
    ),
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
  databaseUrl: string | undefined;
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
  /** The data encryption key (DATA_ENCRYPTION_KEY, base64) and older keys still accepted for reading (issue 39). */
  dataEncryptionKey?: string | undefined;
  dataEncryptionKeysOld?: string[] | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_USERNAME && !e.ADMIN_PASSWORD) || (!e.ADMIN_USERNAME && e.ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_USERNAME and ADMIN_PASSWORD must be set together');
  }
  if (e.NODE_ENV === 'production') {
    const placeholders = [
      ['SESSION_SECRET', e.SESSION_SECRET],
      ['ADMIN_PASSWORD', e.ADMIN_PASSWORD],
      ['DATABASE_URL', databasePassword(e.DATABASE_URL)],
    ].filter(([, value]) => value !== undefined && isPlaceholder(value));
    if (placeholders.length > 0) {
      const lines = placeholders.map(
        ([name]) => `  ${name}: is a placeholder or well-known value; set a real secret (e.g. openssl rand -hex 32)`,
      );
      throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
    }
  }
  const dataDir = resolve(e.DATA_DIR);
  let sessionSecret = e.SESSION_SECRET;
  if (!sessionSecret) {
    if (e.DATABASE_URL && e.NODE_ENV === 'production') {
      // Several instances share one database: each must sign cookies with the same secret.
      throw new ConfigError(
        'Invalid configuration:\n  SESSION_SECRET: required in production with DATABASE_URL (at least 32 characters)',
      );
    }
    sessionSecret = persistedSecret(dataDir);
  }
  let dataEncryptionKey = e.DATA_ENCRYPTION_KEY;
  if (!dataEncryptionKey) {
    if (e.NODE_ENV === 'production' && e.DATABASE_URL) {
      throw new ConfigError(
        'Invalid configuration:\n  DATA_ENCRYPTION_KEY: required in production with DATABASE_URL (openssl rand -base64 32)',
      );
    }
    dataEncryptionKey = persistedSecret(dataDir, 'data-encryption-key', () => randomBytes(32).toString('base64'));
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
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
    dataEncryptionKey,
    dataEncryptionKeysOld: e.DATA_ENCRYPTION_KEYS_OLD,
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
