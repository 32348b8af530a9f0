import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, isPlaceholder, loadConfig } from '../src/env';

/** The shipped deployment (docker-compose.yml) and the production start refuse known credentials. */

const composeText = readFileSync(fileURLToPath(new URL('../../../docker-compose.yml', import.meta.url)), 'utf8');
const compose = parse(composeText) as {
  services: Record<string, { environment?: Record<string, unknown>; ports?: unknown[] }>;
};
const appEnv = compose.services.app!.environment!;
const dbService = compose.services.db!;

/** Variables the deployment cannot run without; each must stop `docker compose` when unset. */
const REQUIRED = {
  app: ['SESSION_SECRET', 'DATA_ENCRYPTION_KEY', 'ADMIN_PASSWORD', 'PUBLIC_URL'],
  db: ['POSTGRES_PASSWORD'],
};
/** Variables that may keep a default: none of them is a credential. */
const OPTIONAL = new Set(['ADMIN_USERNAME', 'TRUST_PROXY', 'SMTP_URL']);

describe('docker-compose.yml', () => {
  it('requires every credential and the public origin with the :? (required) form', () => {
    for (const name of REQUIRED.app) expect(String(appEnv[name]), name).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
    expect(String(dbService.environment!.POSTGRES_PASSWORD)).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
  });

  it('has no fixed or defaulted secret anywhere in the file', () => {
    // Every interpolation is either required (:?) or an optional, non-secret setting.
    const refs = [...composeText.matchAll(/\$\{([A-Z_]+)([^}]*)\}/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [ref, name, rest] of refs) {
      if (!rest!.startsWith(':?')) expect(OPTIONAL.has(name!), `${ref} has a default`).toBe(true);
    }
    expect(composeText).not.toMatch(/change-me/i);
    // The app reaches the database with the required password, not a literal one.
    expect(String(appEnv.DATABASE_URL)).toMatch(/^postgres:\/\/dealer:\$\{POSTGRES_PASSWORD:\?[^}]+\}@db:5432\//);
    expect(String(dbService.environment!.POSTGRES_PASSWORD)).not.toBe('dealer');
  });

  it('does not publish PostgreSQL beyond the loopback interface', () => {
    for (const p of dbService.ports ?? []) {
      const host = typeof p === 'string' ? p.split(':')[0] : (p as { host_ip?: string }).host_ip;
      expect(host, `db port ${JSON.stringify(p)}`).toBe('127.0.0.1');
    }
  });
});

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://dealer:9c1f0e7d2b8a4c6e@db:5432/dealer_network',
  SESSION_SECRET: 'b3f1c9a07e5d2846a1f0c3e9d7b5a2c4e6f8091a',
  DATA_ENCRYPTION_KEY: 'q5Xh0dC1yq2bq8w7U3kQm9Zr4Lp6Tn2Vb0Jc8Se1Ga4=',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'Vt4-rq9-Lm2-xw7',
  PUBLIC_URL: 'https://dealers.example.com',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('production start refuses placeholder credentials', () => {
  it('accepts real values', () => {
    expect(loadConfig(production).adminPassword).toBe(production.ADMIN_PASSWORD);
  });

  it.each([
    ['SESSION_SECRET', 'change-me-to-a-long-random-string-of-48-chars'],
    ['SESSION_SECRET', 'CHANGE_ME_please_to_something_long_and_random!!'],
    ['ADMIN_PASSWORD', 'change-me-now'],
    ['ADMIN_PASSWORD', 'Change-Me'],
    ['ADMIN_PASSWORD', 'password'],
    ['ADMIN_PASSWORD', 'admin'],
    ['ADMIN_PASSWORD', 'admin123'],
    ['DATABASE_URL', 'postgres://dealer:dealer@db:5432/dealer_network'],
    ['DATABASE_URL', 'postgres://postgres:password@127.0.0.1/dn'],
  ])('%s=%s stops the start with the variable named', (name, value) => {
    expect(refusal({ ...production, [name]: value })).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
  });

  it('names every offending variable at once', () => {
    const both = refusal({
      ...production,
      ADMIN_PASSWORD: 'change-me-now',
      SESSION_SECRET: 'change-me-to-a-long-random-string-of-48-chars',
    });
    expect(both).toMatch(/SESSION_SECRET/);
    expect(both).toMatch(/ADMIN_PASSWORD/);
  });

  it('leaves development alone', () => {
    expect(() =>
      loadConfig({
        ...production,
        NODE_ENV: 'development',
        ADMIN_PASSWORD: 'change-me-now',
        DATABASE_URL: production.DATABASE_URL,
      }),
    ).not.toThrow();
  });

  it('knows a placeholder from a real secret', () => {
    for (const v of ['change-me', 'changeme', 'Change Me Now', 'PASSWORD', 'replace-with-a-secret', 'your_secret_here'])
      expect(isPlaceholder(v), v).toBe(true);
    for (const v of ['Vt4-rq9-Lm2-xw7', 'admin-password-1', production.SESSION_SECRET])
      expect(isPlaceholder(v), v).toBe(false);
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 10 connections and takes a whole number from 1 to 200', () => {
    expect(loadConfig(production).databasePoolSize).toBe(10);
    expect(loadConfig({ ...production, DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const bad of ['0', '201', '2.5', 'many']) {
      expect(refusal({ ...production, DATABASE_POOL_SIZE: bad }), bad).toMatch(/^\s+DATABASE_POOL_SIZE: /m);
    }
  });
});
