import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/env';

/** Every setting is validated once at start, and a refusal names the variable (issue 40). */

const dataDir = mkdtempSync(join(tmpdir(), 'dn-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir };

function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env }, { check: true });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('configuration messages', () => {
  it.each([
    ['NODE_ENV', 'staging', 'must be development, production or test'],
    ['PORT', 'eighty', 'must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'must be a whole number from 0 to 65535'],
    ['DATABASE_URL', 'mysql://x@y/z', 'must be a postgres:// connection string'],
    ['SESSION_SECRET', 'short', 'must be at least 32 characters'],
    ['ADMIN_PASSWORD', 'short', 'must be at least 8 characters'],
    ['SMTP_URL', 'http://mail', 'must be an smtp:// or smtps:// URL'],
    ['REPLY_TO', 'not an address', 'must be an email address'],
    ['PUBLIC_URL', 'dealers.example.com', 'must be an http(s) origin'],
    ['LOG_LEVEL', 'loud', 'must be fatal, error, warn, info, debug, trace or silent'],
    ['RATE_LIMIT_MULTIPLIER', '0', 'must be a whole number from 1 to 1000'],
    ['DATABASE_POOL_SIZE', '2.5', 'must be a whole number from 1 to 200'],
    ['UNDO_WINDOW_SECONDS', '-1', 'must be a whole number from 0 to 300'],
    ['ORDERS_WEBHOOK_SECRET', 'plain-secret', 'must be whsec_ followed by base64'],
    ['METRICS_TOKEN', 'short', 'must be at least 24 characters'],
    ['METRICS_TOKEN', 'a token with spaces in it, long enough', 'must be printable ASCII without spaces'],
    ['BACKUP_KEEP', 'seven', 'must be a whole number of backups to keep'],
    ['BACKUP_KEEP', '0', 'must be between 1 and 365'],
    ['DATABASE_DIRECT_URL', 'mysql://x@y/z', 'must be a postgres:// connection string'],
    ['MIGRATION_LOCK_WAIT_SECONDS', '0', 'must be a whole number from 1 to 3600'],
    ['BACKUP_ENCRYPTION_KEY', 'too-short', 'must be 32 random bytes in base64'],
    ['BACKUP_ENCRYPTION_KEY', Buffer.alloc(16, 1).toString('base64'), 'must be 32 random bytes in base64'],
  ])('%s=%s: "%s", on a line naming the variable', (name, value, message) => {
    const text = refusal({ BACKUP_DIR: dataDir, [name]: value });
    const line = text.split('\n').find((l) => l.trim().startsWith(`${name}:`));
    expect(line, text).toBeDefined();
    expect(line).toContain(message);
  });

  it('names every variable at fault at once, and the rules between settings', () => {
    const text = refusal({ PORT: 'x', SMTP_URL: 'x' });
    expect(text).toMatch(/^ {2}PORT: /m);
    expect(text).toMatch(/^ {2}SMTP_URL: /m);
    expect(refusal({ BACKUP_KEEP: '3' })).toContain('BACKUP_KEEP: needs BACKUP_DIR');
    expect(refusal({ ADMIN_USERNAME: 'owner' })).toContain('ADMIN_USERNAME and ADMIN_PASSWORD must be set together');
    const production = refusal({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://dealer:9c1f0e7d2b8a4c6e@db:5432/dealer_network',
      METRICS_TOKEN: 'change-me-to-a-long-random-token',
    });
    expect(production).toContain('METRICS_TOKEN: is a placeholder');
    expect(production).toContain('SESSION_SECRET: required in production with DATABASE_URL');
  });

  it('a pooled DATABASE_URL (?pgbouncer=true) and DATABASE_DIRECT_URL (issue 46)', () => {
    const pooled = loadConfig(
      {
        ...base,
        DATABASE_URL: 'postgres://app:pw@pooler:6432/dn?sslmode=require&pgbouncer=true',
        DATABASE_DIRECT_URL: 'postgres://app:pw@db:5432/dn',
        MIGRATION_LOCK_WAIT_SECONDS: '60',
      },
      { check: true },
    );
    // The flag is the app's; pg and pg_dump get the URL without it.
    expect(pooled).toMatchObject({
      databaseUrl: 'postgres://app:pw@pooler:6432/dn?sslmode=require',
      databaseTransactionPooler: true,
      databaseDirectUrl: 'postgres://app:pw@db:5432/dn',
      migrationLockWaitSec: 60,
    });
    const direct = loadConfig({ ...base, DATABASE_URL: 'postgres://app:pw@db:5432/dn' }, { check: true });
    expect(direct).toMatchObject({ databaseUrl: 'postgres://app:pw@db:5432/dn', databaseTransactionPooler: false });
    expect(direct.migrationLockWaitSec).toBe(300);
    expect(refusal({ DATABASE_DIRECT_URL: 'postgres://app@db/dn' })).toContain(
      'DATABASE_DIRECT_URL: needs DATABASE_URL',
    );
    expect(
      refusal({
        DATABASE_URL: 'postgres://app@pooler/dn',
        DATABASE_DIRECT_URL: 'postgres://app@pooler/dn?pgbouncer=true',
      }),
    ).toContain('DATABASE_DIRECT_URL: must reach PostgreSQL directly');
  });

  it('accepts the new settings, and the check writes nothing to the data folder', () => {
    const config = loadConfig(
      { ...base, METRICS_TOKEN: 'a'.repeat(24), BACKUP_DIR: join(dataDir, 'backups'), BACKUP_KEEP: '14' },
      { check: true },
    );
    expect(config).toMatchObject({ metricsToken: 'a'.repeat(24), backupKeep: 14 });
    expect(config.backupDir).toBe(join(dataDir, 'backups'));
    expect(loadConfig({ ...base, BACKUP_DIR: dataDir }, { check: true }).backupKeep).toBe(7);
    expect(existsSync(join(dataDir, 'session-secret'))).toBe(false);
  });
});

describe('start --check', () => {
  const server = fileURLToPath(new URL('../src/server.ts', import.meta.url));
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', server, '--check'], {
      env: { PATH: process.env.PATH ?? '', ...base, ...env },
      encoding: 'utf8',
      // Limits for a hang: tsx compiling the server took over 30 s on a busy machine (issue 46).
      timeout: 120_000,
    });

  it('exits 0 on a valid configuration without starting, and 1 naming the variable on a bad one', () => {
    const ok = run({ PORT: '3999' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Configuration is valid');
    const bad = run({ PORT: '3999', METRICS_TOKEN: 'short' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('METRICS_TOKEN: must be at least 24 characters');
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(false);
  }, 300_000);
});
