// The peers (../shared/peers, read-only): B0 fastify-floor (bare Fastify + pg) and B1
// express-classic. They are copied to bench/.peers (git-ignored) and their dependencies installed
// there from their own package-lock; their seed runs on their OWN database, because it drops and
// recreates tables named like the app's (session, users, dealers, affiliate_links, ...).
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sh, startNode } from './proc.mjs';

export const PEERS_DB = 'dn_bench_peers';

/** Logins of the peers' seed (shared/peers/common.mjs). */
export const PEER_LOGINS = {
  admin: { path: '/api/admin/login', body: { username: 'admin', password: 'Admin-Peers-2025!' } },
  dealer: { path: '/api/dealer/login', body: { username: 'dealer@example.com', password: 'Dealer-Peers-2025!' } },
};

/** Copies the peers next to the harness and installs their locked dependencies when the lock changed. */
export function preparePeers({ source, dest, log }) {
  if (!existsSync(join(source, 'package-lock.json'))) throw new Error(`no peers at ${source} (BENCH_PEERS_DIR)`);
  cpSync(source, dest, {
    recursive: true,
    filter: (src) => !/\/(node_modules|results-[^/]*)$/.test(src),
  });
  const lock = readFileSync(join(dest, 'package-lock.json'), 'utf8');
  const stamp = join(dest, 'node_modules', '.bench-lock');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
    log('installing the peers’ dependencies (npm ci in bench/.peers)');
    sh('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dest });
    writeFileSync(stamp, lock);
  }
  return { dir: dest, commit: null };
}

/** Seeds the peers' database (created here, dropped at the end of the stage). */
export async function seedPeers({ admin, pgBase, dir, dealers, log }) {
  await admin.query(`drop database if exists ${PEERS_DB} with (force)`);
  await admin.query(`create database ${PEERS_DB}`);
  const dbUrl = `${pgBase}/${PEERS_DB}`;
  log(`seeding ${PEERS_DB} with the peers' seed.mjs (${dealers.toLocaleString('en-US')} dealers)`);
  const out = sh(process.execPath, ['seed.mjs'], {
    cwd: dir,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      SEED_DEALERS: String(dealers),
      SEED_LINKS: String(Math.round(dealers / 5)),
      SEED_CALLS: String(Math.round(dealers / 2)),
    },
  });
  return { dbUrl, seedOutput: out.trim() };
}

/** Starts B0 or B1 pinned like the app (NODE_ENV=production, TZ=UTC, as the peers' own bench does). */
export async function startPeer({ key, dir, dbUrl, port, cores, logFile }) {
  const script = key === 'b0' ? 'fastify-floor/server.mjs' : 'express-classic/server.mjs';
  const base = `http://127.0.0.1:${port}`;
  const server = await startNode({
    name: key,
    script: join(dir, script),
    cwd: dir,
    env: { DATABASE_URL: dbUrl, PORT: String(port), NODE_ENV: 'production', TZ: 'UTC' },
    cores,
    readyUrl: `${base}/api/landing-videos`,
    logFile,
  });
  return { ...server, base, port };
}

/** B1's session cookie (connect.sid) after a login; B0 has no sessions. */
export async function peerSignIn(base, role) {
  const { path, body } = PEER_LOGINS[role];
  const r = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`B1 ${path} answered ${r.status}: ${await r.text()}`);
  return r.headers.getSetCookie()[0].split(';')[0];
}
