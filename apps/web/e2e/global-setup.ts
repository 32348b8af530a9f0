import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { limit } from './support/time';

export const ADMIN = { username: 'e2e-admin', password: 'e2e-admin-password' };
/** The orders webhook's secret on the e2e server (issue 13): the tests sign with it. */
export const WEBHOOK_SECRET = `whsec_${Buffer.from('e2e-orders-webhook-secret-0123456789').toString('base64')}`;

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
  } catch {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL not reachable at ${adminUrl}`);
    return null;
  }
  const name = `dn_e2e_${Date.now().toString(36)}`;
  await client.query(`create database ${name}`);
  await client.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Starts a real SMTP server that writes each message as JSON into a folder, and the
 * production server (apps/api/dist) on a fresh database, then hands both to the tests.
 */
export default async function globalSetup() {
  const work = mkdtempSync(join(tmpdir(), 'dn-e2e-'));
  const mailDir = join(work, 'mail');
  mkdirSync(mailDir);
  // The server's clock offset in ms (issue 38): e2e/support/clock.ts advanceClock rewrites it.
  const clockFile = join(work, 'clock-offset');
  writeFileSync(clockFile, '0');
  let n = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _s, cb) {
      simpleParser(stream)
        .then((m) => {
          const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address));
          // Written whole, then renamed: a reader never sees half a message.
          const name = join(mailDir, `${Date.now()}-${++n}`);
          writeFileSync(`${name}.tmp`, JSON.stringify({ to, subject: m.subject, text: m.text, html: m.html || '' }));
          renameSync(`${name}.tmp`, `${name}.json`);
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpPort = (smtp.server.address() as { port: number }).port;

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const database = await freshPostgres();
  const server: ChildProcess = spawn(
    process.execPath,
    [
      '--enable-source-maps',
      process.env.E2E_SERVER ?? fileURLToPath(new URL('../../api/dist/server.js', import.meta.url)),
    ],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        DATA_DIR: join(work, 'data'),
        ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
        SESSION_SECRET: 'e2e-session-secret-0123456789-abcdefghijklmnop',
        // Issue 39: TINs and account numbers are encrypted with it (required in production with DATABASE_URL).
        DATA_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        ORDERS_WEBHOOK_SECRET: WEBHOOK_SECRET,
        LOG_LEVEL: 'warn',
        // The whole suite signs up and signs in from one address: budgets x20 (the limits have tests of their own).
        RATE_LIMIT_MULTIPLIER: '20',
        // A shiftable clock (production refuses it unless ALLOW_TEST_CLOCK=1) and a scheduler tick every second.
        TEST_CLOCK_FILE: clockFile,
        ALLOW_TEST_CLOCK: '1',
        SCHEDULER_INTERVAL_SECONDS: '1',
        // The longest undo window (issue 46): no step of a spec races it however busy the machine is
        // (an Undo click, a notice that must replace another "at once"). A spec waiting for a
        // decision's email ends that decision's window first (waitForMail): it does not sleep 12 s.
        // Without PostgreSQL (no way to end it from the specs) the default window stays.
        ...(database ? { UNDO_WINDOW_SECONDS: '300' } : {}),
        WEB_DIST: process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../dist', import.meta.url)),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );

  // A limit that catches a server that never starts, not a slow machine: a busy one took over 60 s
  // (issue 46). A server that is given up on is stopped, not left running.
  const deadline = Date.now() + limit(180_000);
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      const r = await fetch(`${baseUrl}/readyz`);
      if (r.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`the server did not become ready within ${limit(180_000) / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_CLOCK_FILE = clockFile;
  process.env.E2E_DATABASE_URL = database?.url ?? '';

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await new Promise<void>((r) => smtp.close(() => r()));
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  };
}
