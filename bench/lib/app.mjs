// The app as the newer stages use it (peers, logging, curve): a seeded database of a given size,
// app servers started on it with a chosen log level, sign-ins, SQL capture and the diagnostics
// that explain a missed target (wait events sampled from pg_stat_activity, query plans, a CPU profile).
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { isFramework, logSize, statementsSince } from './capture.mjs';
import { run } from './load.mjs';
import { sleep, startNode } from './proc.mjs';
import { summarizeProfile } from './profile.mjs';
import { BENCH_DEALER, DEALER_ID, seedNetwork } from './seed.mjs';

export const ADMIN_CREDS = { username: 'bench-admin', password: 'bench-admin-password' };
export const DEALER_CREDS = { username: BENCH_DEALER.email, password: BENCH_DEALER.password };

/**
 * The other tables scale with the dealers as in the committed run (100k: 20k links, 300k audits,
 * 50k calls). `partner`: the partner program's tables too, and the Activity tab's trail, at the
 * issues' ratios (100k dealers: 1,000,000 orders, 300,000 commissions, 1,000,000 audit rows).
 */
export const scaledSeed = (dealers, { partner = false } = {}) => ({
  dealers,
  links: Math.round(dealers / 5),
  audits: dealers * (partner ? 10 : 3),
  calls: Math.round(dealers / 2),
  orders: partner ? dealers * 10 : 0,
  commissions: partner ? dealers * 3 : 0,
});

/** ORDERS_WEBHOOK_SECRET of every bench server (Standard Webhooks' whsec_ + base64 form). */
export const WEBHOOK_SECRET = `whsec_${Buffer.from('bench-orders-webhook-secret-0123456789').toString('base64')}`;

/** The TCP ports something listens on now, from /proc/net/tcp and tcp6 (state 0A). */
function listeningPorts() {
  const ports = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '0A' && local) ports.add(Number.parseInt(local.split(':').pop(), 16));
    }
  }
  return ports;
}

let nextPort = 4200 + Math.floor(Math.random() * 400);
/** The next port for a bench server, skipping taken ones (this machine runs NATS on 4222 and epmd on 4369). */
export const freePort = () => {
  const taken = listeningPorts();
  while (taken.has(nextPort)) nextPort++;
  return nextPort++;
};

/**
 * A fresh database with the app's schema (its own start-up migrates it) and `dealers` seeded.
 * `referrals`: the bench dealer gets at least this many referrals (the peers' demo dealer has 25).
 */
export async function appFixture(ctx, { dealers, tag, referrals = 0, partner = false }) {
  const dbName = `dn_bench_${ctx.stamp}_${tag}`;
  const dbUrl = `${ctx.pgBase}/${dbName}`;
  await ctx.admin.query(`drop database if exists ${dbName} with (force)`);
  await ctx.admin.query(`create database ${dbName}`);
  const fx = { dbName, dbUrl, dealers, db: null };
  fx.drop = async () => {
    await fx.db?.end().catch(() => {});
    fx.db = null;
    await ctx.admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
  };
  try {
    const migrate = await startApp(ctx, fx, { logLevel: 'warn' });
    await migrate.stop();
    fx.db = new pg.Client({ connectionString: dbUrl });
    await fx.db.connect();
    const cfg = scaledSeed(dealers, { partner });
    ctx.log(
      `seeding ${dbName}: ${dealers.toLocaleString('en-US')} dealers${partner ? `, ${cfg.orders.toLocaleString('en-US')} orders, ${cfg.commissions.toLocaleString('en-US')} commissions, ${cfg.audits.toLocaleString('en-US')} audit rows` : ''}`,
    );
    fx.seed = await seedNetwork(fx.db, cfg);
    if (referrals > fx.seed.bench_dealer_referrals) {
      // Unreferred dealers become automatic referrals of the bench dealer through its link rec1.
      await fx.db.query(
        `update dealers set referred_by = $1, recruiter_id = 'rec1', referral_type = 'automatic'
         where id in (select id from dealers where referred_by is null and id <> $1 order by created_at desc limit $2)`,
        [DEALER_ID(1), referrals - fx.seed.bench_dealer_referrals],
      );
      await fx.db.query(
        `update affiliate_links set total_referrals = (select count(*) from dealers where referred_by = $1) where dealer_id = $1`,
        [DEALER_ID(1)],
      );
      fx.seed.bench_dealer_referrals = referrals;
    }
    ctx.log(`seeded in ${fx.seed.seconds.toFixed(1)} s`);
  } catch (e) {
    await fx.drop();
    throw e;
  }
  return fx;
}

/**
 * An app server on the fixture's database, pinned with the other servers. `logLevel: null` leaves
 * LOG_LEVEL unset: the production default (info, one line per request). Its output goes to a file.
 */
export async function startApp(
  ctx,
  fx,
  { logLevel = null, nodeArgs = [], port = freePort(), name = 'app', env: extraEnv = {} } = {},
) {
  const logFile = join(ctx.logDir, `${fx.dbName}-${name}-${port}.log`);
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: fx.dbUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789-0123456789-abcdef',
    ADMIN_USERNAME: ADMIN_CREDS.username,
    ADMIN_PASSWORD: ADMIN_CREDS.password,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ORDERS_WEBHOOK_SECRET: WEBHOOK_SECRET,
    // Issue 39: payout details are sealed at rest; production refuses to start without the key.
    DATA_ENCRYPTION_KEY: Buffer.from('bench-data-encryption-key-012345').toString('base64'),
    // Load arrives from 127.0.0.1 with X-Forwarded-For: each simulated client has its own address.
    TRUST_PROXY: '127.0.0.1',
  };
  if (logLevel) env.LOG_LEVEL = logLevel;
  // A stage's own settings (the mail stage's SMTP_URL).
  Object.assign(env, extraEnv);
  const base = `http://127.0.0.1:${port}`;
  const server = await startNode({
    name,
    nodeArgs,
    script: join(ctx.root, 'apps/api', ctx.apiOut, 'server.js'),
    cwd: join(ctx.root, 'apps/api'),
    env,
    dropEnv: logLevel ? [] : ['LOG_LEVEL', 'WEB_DIST'],
    cores: ctx.serverCores,
    readyUrl: `${base}/readyz`,
    logFile,
  });
  return { ...server, base, port, logFile, logLevel: logLevel ?? 'unset (production default: info)' };
}

export async function signIn(base, path, body) {
  const r = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
  const c = r.headers.getSetCookie().find((x) => x.startsWith('dn.sid='));
  if (!c) throw new Error(`${path} set no session cookie`);
  return c.split(';')[0];
}

export async function appCookies(base) {
  return {
    admin: await signIn(base, '/api/admin/login', ADMIN_CREDS),
    dealer: await signIn(base, '/api/dealer/login', DEALER_CREDS),
  };
}

/**
 * The statements each request runs, from PostgreSQL's log: logging is switched on for the
 * database, a separate server answers one request per entry, and logging is switched off again.
 * `requests`: [{ name, path, role }]. Returns { name: [{ sql, params }] } (framework statements kept,
 * see capture.mjs isFramework), or null when the log cannot be read.
 */
export async function captureStatements(ctx, fx, requests) {
  if (logSize() === null) return null;
  await ctx.admin.query(`alter database ${fx.dbName} set log_min_duration_statement = 0`);
  const server = await startApp(ctx, fx, { logLevel: 'warn', name: 'capture' });
  const out = {};
  try {
    const cookies = await appCookies(server.base);
    for (const q of requests) {
      const off = logSize();
      const r = await fetch(server.base + q.path, { headers: q.role ? { cookie: cookies[q.role] } : {} });
      await r.arrayBuffer();
      await sleep(300);
      out[q.name] = r.status === 200 ? statementsSince(off, fx.dbName) : [];
    }
  } finally {
    await ctx.admin.query(`alter database ${fx.dbName} reset log_min_duration_statement`);
    await server.stop();
  }
  return out;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the reading statements captured for one request. */
export async function plansOf(db, statements) {
  const out = [];
  for (const s of statements ?? []) {
    if (isFramework(s) || !/^\s*(select|with)/i.test(s.sql) || /"(admins|sessions)"/.test(s.sql)) continue;
    try {
      const p = await db.query(`explain (analyze, buffers) ${s.sql}`, s.params);
      const plan = p.rows.map((r) => r['QUERY PLAN']).join('\n');
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
      out.push({ sql: s.sql, params: s.params, executionMs: ms, plan });
    } catch (e) {
      out.push({ sql: s.sql, params: s.params, error: e.message });
    }
  }
  return out;
}

/**
 * Samples pg_stat_activity for one database every `everyMs` until stopped: what its busy backends
 * wait on (wait_event_type:wait_event, or "CPU" when active and waiting on nothing), per query.
 */
export function waitSampler(connectionString, database, everyMs = 50) {
  const c = new pg.Client({ connectionString });
  const counts = new Map();
  const byQuery = new Map();
  let samples = 0;
  let busy = 0;
  let stopped = false;
  const loop = (async () => {
    await c.connect();
    while (!stopped) {
      const r = await c.query(
        `select state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 80) q
         from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and state is not null and state <> 'idle'`,
        [database],
      );
      samples++;
      for (const row of r.rows) {
        busy++;
        const k =
          row.state === 'active'
            ? row.wait_event_type
              ? `${row.wait_event_type}:${row.wait_event}`
              : 'CPU (active, no wait event)'
            : `${row.state}${row.wait_event ? ` (${row.wait_event_type}:${row.wait_event})` : ''}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
        const qk = `${k} | ${row.q}`;
        byQuery.set(qk, (byQuery.get(qk) ?? 0) + 1);
      }
      await sleep(everyMs);
    }
    await c.end();
  })();
  const top = (m, n) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([what, n2]) => ({ what, samples: n2, pct: busy ? Math.round((1000 * n2) / busy) / 10 : 0 }));
  return {
    async stop() {
      stopped = true;
      await loop;
      return {
        samples,
        busyBackendSamples: busy,
        avgBusy: samples ? busy / samples : 0,
        top: top(counts, 8),
        topQueries: top(byQuery, 6),
      };
    },
  };
}

/**
 * What limits one case: a fresh server started with --cpu-prof (production log level) under the
 * case's load, the wait events of the app's database sampled during that run, then the profile's
 * self time by package and function.
 */
export async function diagnose(ctx, fx, { name, load, seconds }) {
  const dir = join(tmpdir(), `${fx.dbName}-prof-${name}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const out = {};
  const server = await startApp(ctx, fx, { name: `diag-${name}`, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] });
  try {
    const cookies = await appCookies(server.base);
    await run({ ...load(server.base, cookies), duration: 1 });
    const waits = waitSampler(fx.dbUrl, fx.dbName);
    try {
      out.run = await run({ ...load(server.base, cookies), duration: seconds });
    } finally {
      out.waits = await waits.stop();
    }
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  out.profile = file ? summarizeProfile(join(dir, file), 10) : { error: 'no profile written' };
  rmSync(dir, { recursive: true, force: true });
  delete out.run?.latencies;
  return out;
}

/**
 * autocannon hangs up at the end of a run, but a server still works off what was queued: wait
 * until a cheap request is fast again (3 in a row under 20 ms) before the next run.
 */
export async function drain(url) {
  for (let fast = 0, i = 0; fast < 3 && i < 600; i++) {
    const t0 = performance.now();
    await fetch(url).then(
      (r) => r.arrayBuffer(),
      () => {},
    );
    fast = performance.now() - t0 < 20 ? fast + 1 : 0;
    await sleep(100);
  }
}

/** A distinct client address per request (10.100.0.0 and up): per-IP budgets see many visitors. */
export const clientIp = (n) => `10.${100 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`;

/**
 * autocannon options for GET `path`: with `perIp`, every request comes from its own address
 * (X-Forwarded-For; the servers trust 127.0.0.1), as typists of a public search do, so the
 * endpoint's per-IP budget (the typeahead's 120 a minute) counts visitors, not the load generator.
 */
export function getLoad(base, path, { cookie, perIp = false } = {}) {
  const headers = cookie ? { cookie } : {};
  if (!perIp) return { url: base + path, headers };
  let n = 0;
  return {
    url: base,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (req) => ({ ...req, headers: { ...headers, 'x-forwarded-for': clientIp(n++) } }),
      },
    ],
  };
}

/**
 * One read endpoint on a running server: `warmup` s at c=`connections`, then `duration` s with one
 * client (p95 = service time, the figure the targets use) and `duration` s at c=`connections`
 * (req/s, with the wait events of the app's database sampled), then the EXPLAIN ANALYZE plans
 * of its captured statements. `e`: { path, role, perIp }.
 */
export async function measureEndpoint(ctx, fx, server, cookies, e, statements) {
  const o = ctx.opts;
  const cookie = e.role ? cookies[e.role] : undefined;
  const probe = await fetch(server.base + e.path, {
    headers: { ...(cookie ? { cookie } : {}), 'x-forwarded-for': '10.99.0.1' },
  });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 200) return { error: `answered ${probe.status}`, bytes };
  const opts = getLoad(server.base, e.path, { cookie, perIp: e.perIp });
  await run({ ...opts, connections: o.connections, duration: o.warmup });
  await drain(`${server.base}/healthz`);
  const one = await run({ ...opts, connections: 1, duration: o.duration });
  const waits = waitSampler(fx.dbUrl, fx.dbName, 100);
  const many = await run({ ...opts, connections: o.connections, duration: o.duration });
  const w = await waits.stop();
  await drain(`${server.base}/healthz`);
  return {
    bytes,
    single: { p50: one.p50, p95: one.p95, p99: one.p99, reqPerSec: one.okPerSec, statuses: one.statuses },
    loaded: { reqPerSec: many.okPerSec, p50: many.p50, p95: many.p95, p99: many.p99, statuses: many.statuses },
    waits: w,
    plans: await plansOf(fx.db, statements?.[e.key]),
  };
}
