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
  publicUrl: string;
  /** Addresses of proxies whose X-Forwarded-For is believed (comma separated), or undefined. */
  trustProxy: string | undefined;
  logLevel: string;
  webDist: string | undefined;
  /** Multiplies every rate limit's budget: for test environments that send many requests from one address. */
  rateLimitMultiplier: number;
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
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    webDist: e.WEB_DIST,
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
  };
}

/** Generated once and kept in the data folder, so sessions survive restarts of the embedded setup. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
