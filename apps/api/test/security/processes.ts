import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real processes for the durability tests: the private server build and a private PostgreSQL. */

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_JS = join(API_DIR, '.dist-security', 'server.js');
export const SECRET = 'security-suite-session-secret-0123456789abcdef';
export const ADMIN = { username: 'sec-admin', password: 'sec-admin-password-1' };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Server {
  url: string;
  port: number;
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServer(opts: {
  port?: number;
  env: Record<string, string | undefined>;
  /** false: return once spawned, without waiting for it to serve (issue 46: a start that waits). */
  waitReady?: boolean;
}): Promise<Server> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [SERVER_JS], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      SESSION_SECRET: SECRET,
      // Required in production with DATABASE_URL (issue 39): the instances share one key.
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      // The load comes from one address: each request names its own client through the proxy header.
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(tmpdir(), 'dn-security-no-web'),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const server: Server = {
    url,
    port,
    proc,
    output: () => out,
    exited,
    async kill(signal = 'SIGKILL') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill(signal);
      await exited;
    },
  };
  if (opts.waitReady === false) return server;
  // A limit for a hang: under load (the CI's phases side by side, load average 23) a PGlite server
  // printed nothing in its first 60 s (decision 1330).
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      // While it migrates, the process answers /healthz with status 'starting' (issue 46).
      if (res.ok && ((await res.json()) as { status?: string }).status === 'ok') return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.kill();
  throw new Error(`server did not start in time:\n${out}`);
}

/** A PostgreSQL of our own, so stopping it disturbs nobody else's tests. */
export interface OwnPostgres {
  url: string;
  /** 'immediate' drops every connection without a goodbye, as a crash or a network cut would. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  destroy(): void;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

export async function ownPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'dn-sec-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) => {
    const cmd = asRoot ? 'runuser' : join(PG_BIN, bin);
    const argv = asRoot ? ['-u', 'postgres', '--', join(PG_BIN, bin), ...args] : args;
    execFileSync(cmd, argv, { stdio: 'pipe', timeout: 60_000 });
  };
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  chmodSync(dir, 0o700);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const pgctl = (action: 'start' | 'stop', mode = 'fast') =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ...(action === 'stop' ? ['-m', mode] : []),
      action,
    ]);
  pgctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: (mode = 'fast') => pgctl('stop', mode),
    start: () => pgctl('start'),
    destroy() {
      try {
        pgctl('stop');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let seq = 0;
/** A distinct client address per request, forwarded by the trusted local "proxy". */
export const clientIp = () => `198.18.${(++seq >> 8) & 255}.${seq & 255}`;

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientIp(), ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
