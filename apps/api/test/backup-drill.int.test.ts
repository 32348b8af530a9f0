import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@dn/db';
import { createEmptyPostgresDatabase } from '@dn/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { fillEveryTable } from './every-table-fixture';

/**
 * The restore drill of the README (issue 46), with real processes: a running app whose database
 * holds a row in every table (jobs with their events, webhook deliveries: the identity columns of
 * the issue), `pnpm db:backup`, `pnpm db:backup --verify`, `pnpm db:restore` into a scratch data
 * folder or database, the app started on it, /readyz and an admin's sign-in.
 */

const api = fileURLToPath(new URL('..', import.meta.url));
const embedded = process.env.TEST_DB === 'pglite';
const work = mkdtempSync(join(tmpdir(), 'dn-drill-'));
const drops: (() => Promise<void>)[] = [];
const running: ChildProcess[] = [];

const secrets = {
  SESSION_SECRET: 'drill-session-secret-0123456789-abcdefghijkl',
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  BACKUP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  ADMIN_USERNAME: 'owner',
  ADMIN_PASSWORD: 'drill-owner-password-1',
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>) {
  let out = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', join(api, 'src/server.ts')], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...secrets, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(proc);
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out: () => out, exited };
}

async function waitReady(base: string, r: ReturnType<typeof start>, ms = 180_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (r.proc.exitCode !== null) throw new Error(`server exited: ${r.out()}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(`not ready: ${r.out()}`);
}

/** A CLI as `pnpm db:backup` / `pnpm db:restore` run it (tsx, the caller's folder). */
function cli(name: string, args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(api, 'src/cli', name), ...args], {
      cwd: api,
      env: { PATH: process.env.PATH ?? '', INIT_CWD: work, ...secrets, ...env },
      timeout: 180_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c;
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Where a database is, as the app's settings say it; and a URL this test reaches it by. */
async function newDatabase(name: string): Promise<{ env: Record<string, string>; url: () => string }> {
  const dataDir = join(work, name);
  if (embedded) {
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      // The running app's embedded database, through its socket (decision 0970).
      url: () => `postgres://postgres@${readFileSync(join(dataDir, 'pglite.address'), 'utf8').trim()}/postgres`,
    };
  }
  const pg = await createEmptyPostgresDatabase();
  drops.push(pg.drop);
  return { env: { DATA_DIR: dataDir, DATABASE_URL: pg.url }, url: () => pg.url };
}

async function counts(url: string): Promise<Record<string, number>> {
  const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    const client = await database.pool.connect();
    try {
      const r = await client.query<{ jobs: number; events: number; deliveries: number; dealers: number }>(
        `select (select count(*)::int from jobs) as jobs, (select count(*)::int from job_events) as events,
          (select count(*)::int from webhook_deliveries) as deliveries, (select count(*)::int from dealers) as dealers`,
      );
      return r.rows[0]!;
    } finally {
      client.release();
    }
  } finally {
    await database.close();
  }
}

async function signIn(base: string): Promise<number> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: secrets.ADMIN_USERNAME, password: secrets.ADMIN_PASSWORD }),
  });
  return res.status;
}

afterAll(async () => {
  for (const p of running) if (p.exitCode === null) p.kill('SIGKILL');
  for (const drop of drops) await drop().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

describe(`the restore drill (${embedded ? 'embedded data folder' : 'PostgreSQL'})`, () => {
  it('take, verify, restore into a scratch database, start the app on it: ready, and an admin signs in', async () => {
    // The app, running, with jobs and their events, webhook deliveries and a row in every other table.
    const source = await newDatabase('source');
    const port = await freePort();
    const app = start({ ...source.env, PORT: String(port) });
    await waitReady(`http://127.0.0.1:${port}`, app);
    expect(await signIn(`http://127.0.0.1:${port}`)).toBe(200);
    const filler = await openDatabase({ databaseUrl: source.url(), poolSize: 1 });
    try {
      await fillEveryTable(filler.db);
    } finally {
      await filler.close();
    }
    const before = await counts(source.url());
    expect(before.events).toBeGreaterThan(0);
    expect(before.deliveries).toBeGreaterThan(0);

    // 1. take (while the app runs), 2. verify.
    const backup = await cli('backup.ts', ['drill.backup'], source.env);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('verified: read back whole');
    expect(statSync(join(work, 'drill.backup')).mode & 0o777).toBe(0o600);
    const verify = await cli('backup.ts', ['--verify', 'drill.backup'], source.env);
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stdout).toContain('encrypted and authenticated');

    // 3. restore into a scratch folder or database.
    const scratch = await newDatabase('scratch');
    const restore = await cli('restore.ts', ['drill.backup'], scratch.env);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored .*drill\.backup/);

    // 4. start the app on it, 5. check.
    app.proc.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    const port2 = await freePort();
    const restored = start({ ...scratch.env, PORT: String(port2) });
    const base = `http://127.0.0.1:${port2}`;
    await waitReady(base, restored);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(restored.out()).not.toMatch(/password: /); // the restored admin, not a new one
    expect(await signIn(base)).toBe(200);
    expect(await counts(scratch.url())).toEqual(before);
    restored.proc.kill('SIGTERM');
    expect(await restored.exited).toBe(0);
  }, 600_000);
});
