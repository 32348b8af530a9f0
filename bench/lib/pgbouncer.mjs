// Our own PgBouncer in transaction mode in front of a PostgreSQL (issue 46; the soak's pooler
// variant). The same setup as apps/api/test/security/pgbouncer.ts: an ini in a temporary folder,
// a free port, trust auth, run as the postgres user when we are root (PgBouncer refuses root).
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from './proc.mjs';

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
export const pgbouncerInstalled = () => existsSync(PGBOUNCER);

export async function startPgbouncer({ port, upstreamHost = '127.0.0.1', upstreamPort = 5432, poolSize = 10 }) {
  const dir = mkdtempSync(join(tmpdir(), 'dn-soak-pgbouncer-'));
  const asRoot = process.getuid?.() === 0;
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstreamHost} port=${upstreamPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      `default_pool_size = ${poolSize}`,
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
  let child;
  let out = '';
  const start = async () => {
    rmSync(join(dir, 'pgbouncer.pid'), { force: true });
    out = '';
    child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}):\n${out}`);
      if (out.includes('process up')) return;
      await sleep(50);
    }
    throw new Error(`pgbouncer did not start:\n${out}`);
  };
  /** SIGKILL: every connection cut at once, as a crash of the pooler would. */
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}?pgbouncer=true`,
    start,
    kill,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
