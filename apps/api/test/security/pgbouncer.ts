import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

/**
 * Debian's PgBouncer (issue 46), our own instance in transaction mode in front of the machine's
 * PostgreSQL (127.0.0.1:5432, trust): its ini in a temporary folder, on a free port, run as the
 * postgres user when we are root (PgBouncer refuses to run as root). Stopped and started again by
 * its own process id.
 */
export const PGBOUNCER = '/usr/sbin/pgbouncer';
export const pgbouncerInstalled = () => existsSync(PGBOUNCER);

export interface OwnPgbouncer {
  port: number;
  /** The app's DATABASE_URL for `database` through the pooler, with ?pgbouncer=true. */
  url(database: string): string;
  /** SIGKILL: every client and server connection cut at once, as a crash of the pooler would. */
  kill(): Promise<void>;
  start(): Promise<void>;
  output(): string;
  destroy(): Promise<void>;
}

export async function ownPgbouncer(opts: { poolSize?: number; upstreamPort?: number } = {}): Promise<OwnPgbouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'dn-pgbouncer-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${opts.upstreamPort ?? 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      `default_pool_size = ${opts.poolSize ?? 10}`,
      'ignore_startup_parameters = extra_float_digits',
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    for (const f of ['', 'users.txt', 'pgbouncer.ini']) chownSync(join(dir, f), uid, gid);
  }
  let proc: ChildProcess | undefined;
  let out = '';
  const start = async () => {
    rmSync(join(dir, 'pgbouncer.pid'), { force: true });
    proc = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout?.on('data', (d) => {
      out += d;
    });
    proc.stderr?.on('data', (d) => {
      out += d;
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`pgbouncer exited with ${proc.exitCode}:\n${out}`);
      if (out.includes('process up')) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`pgbouncer did not start:\n${out}`);
  };
  const kill = async () => {
    const p = proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}?pgbouncer=true`,
    kill,
    start,
    output: () => out,
    async destroy() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
