import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmptyPostgresDatabase } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The run contract, with real processes: start on an empty data folder, sign in, restart, keep data and session. */

const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const tsxLoader = 'tsx';
const embedded = process.env.TEST_DB === 'pglite';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Running {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  let out = '';
  const proc = spawn(process.execPath, ['--import', tsxLoader, serverEntry], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out: () => out, exited };
}

// Limits that catch a hang, not a busy machine: a tsx start beside the rest of the suite took over a
// minute on two loaded cores (issue 46).
async function waitReady(base: string, r: Running, ms = 240_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (r.proc.exitCode !== null) throw new Error(`server exited: ${r.out()}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) return;
    } catch {
      // starting
    }
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`not ready: ${r.out()}`);
}

async function stop(r: Running) {
  r.proc.kill('SIGTERM');
  return r.exited;
}

let dataDir: string;
let dbEnv: Record<string, string>;
let dropDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dn-proc-'));
  if (embedded) {
    dbEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
  } else {
    const pg = await createEmptyPostgresDatabase();
    dropDb = pg.drop;
    dbEnv = {
      DATA_DIR: dataDir,
      DATABASE_URL: pg.url,
      SESSION_SECRET: 'process-test-secret-0123456789-abcdefghijkl',
      DATA_ENCRYPTION_KEY: 'q5Xh0dC1yq2bq8w7U3kQm9Zr4Lp6Tn2Vb0Jc8Se1Ga4=',
    };
  }
});

afterAll(async () => {
  await dropDb?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`the server process on ${embedded ? 'an embedded data folder' : 'PostgreSQL'}`, () => {
  it('starts empty, prints the admin sign-in, and keeps data and sessions across a restart', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = start({ ...dbEnv, PORT: String(port) });
    await waitReady(base, first);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const printed = first.out().match(/username: (\S+)\s+password: (\S+)/);
    expect(printed, first.out()).not.toBeNull();
    const [, username, password] = printed!;

    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const me = await fetch(`${base}/api/auth/user`, { headers: { cookie } });
    expect(await me.json()).toMatchObject({ role: 'admin', username });
    expect(await stop(first)).toBe(0);

    const second = start({ ...dbEnv, PORT: String(port) });
    await waitReady(base, second);
    expect(second.out()).not.toMatch(/password: /);
    const again = await fetch(`${base}/api/auth/user`, { headers: { cookie } });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ role: 'admin' });

    if (embedded) {
      // A second process on the same data folder refuses to start instead of corrupting it.
      const intruder = start({ ...dbEnv, PORT: String(await freePort()) });
      expect(await intruder.exited).toBe(1);
      expect(intruder.out()).toMatch(/already in use by another process/);
    }
    expect(await stop(second)).toBe(0);
  }, 600_000);

  it('ADMIN_USERNAME and ADMIN_PASSWORD create the admin once and never overwrite its password', async () => {
    const login = (base: string, password: string) =>
      fetch(`${base}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'owner', password }),
      });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const r = start({ ...dbEnv, PORT: String(port), ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: 'owner-password-1' });
    await waitReady(base, r);
    expect((await login(base, 'owner-password-1')).status).toBe(200);
    expect(await stop(r)).toBe(0);
    // Issue 12: a restart with another ADMIN_PASSWORD keeps the existing admin's password.
    const port2 = await freePort();
    const base2 = `http://127.0.0.1:${port2}`;
    const again = start({ ...dbEnv, PORT: String(port2), ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: 'owner-password-2' });
    await waitReady(base2, again);
    expect((await login(base2, 'owner-password-1')).status).toBe(200);
    expect((await login(base2, 'owner-password-2')).status).toBe(401);
    expect(await stop(again)).toBe(0);
  }, 600_000);

  it("at the production log level writes one line per request to stdout: a quiet server's within a second, the last ones when stopped", async () => {
    // The request log is written asynchronously (server.ts): nothing may be lost at a stop.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const r = start({ ...dbEnv, PORT: String(port), LOG_LEVEL: 'info' });
    await waitReady(base, r);
    const linesOf = (route: string) =>
      r
        .out()
        .split('\n')
        .filter((l) => l.includes(`"route":"${route}"`));
    // A quiet server's line is not held for a full buffer: it is out within the flush interval
    // (a second), the server still running.
    await fetch(`${base}/api/auth/user`);
    // 30 s: a line held for a full buffer never comes while the server idles; a busy machine only delays it.
    const deadline = Date.now() + 30_000;
    while (linesOf('/api/auth/user').length === 0 && Date.now() < deadline)
      await new Promise((res) => setTimeout(res, 100));
    expect(linesOf('/api/auth/user')).toHaveLength(1);
    const n = 40;
    await Promise.all(Array.from({ length: n }, (_, i) => fetch(`${base}/api/landing-videos?n=${i}`)));
    expect(await stop(r)).toBe(0);
    const lines = linesOf('/api/landing-videos');
    expect(lines).toHaveLength(n);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ statusCode: 200 });
  }, 400_000);

  it('stops on bad configuration with a message naming the variable', async () => {
    const r = start({ ...dbEnv, PORT: 'not-a-port' });
    expect(await r.exited).toBe(1);
    expect(r.out()).toMatch(/PORT/);
  }, 300_000);
});
