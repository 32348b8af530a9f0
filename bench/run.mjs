// `pnpm bench`: the production build on fresh, large PostgreSQL databases, in stages (README.md):
//   main     the same-SQL baseline, polls, signup, login, burst, export, Lighthouse, capacity
//   logging  production logging's cost on the hottest poll (stages/logging.mjs)
//   peers    the app vs B0/B1 from ../shared/peers, alternating, median of rounds (stages/peers.mjs)
//   curve    p95, req/s and the export at several data sizes, with curve.svg (stages/curve.mjs)
//   partner  webhook orders/s, the recruiter dashboard and the Commissions tab at scale (stages/partner.mjs)
//   admin    bulk approval under polls, the Activity tab and the typeahead at scale (stages/admin.mjs)
//   mail     the outbox to a local SMTP server: emails/s, a reset link while 10,000 drain (stages/mail.mjs)
//   payees   a 10,000-payee NACHA file and check register, time and memory (stages/payees.mjs)
//   routing  routing a job among 100,000 installers (p95 at one client), quote requests/s (stages/routing.mjs)
// Writes bench/results.json and bench/results.md (--out=DIR or BENCH_OUT elsewhere); a run with
// --only keeps the other stages' figures from the results already there.
// Options: --only=main,logging,peers,curve,partner,admin,mail,payees,routing --mail-scale=50000 --sizes=10000,100000,1000000 --peers-dealers=100000
//   --routing-installers=100000 --routing-dealers=1000000 (routing) --scale=100000 (partner, admin) --bulk=10000 --poll-seconds=30 (admin)
//   --rounds=3 --duration=10 --warmup=3 --connections=50 --export-runs=3 --logging-endpoint=PATH:ROLE
//   --peers-dir=../shared/peers --out=DIR --skip-build --api-dist=FOLDER. The main stage keeps its env knobs:
//   BENCH_DEALERS, BENCH_DURATION (s per run), BENCH_RUNS, BENCH_CONNECTIONS, BENCH_PG, ...
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';
import pg from 'pg';
import { isFramework, logSize, PG_LOG, statementsSince } from './lib/capture.mjs';
import { disconnectMidDownload, downloadExport } from './lib/export.mjs';
import { lighthouse } from './lib/lighthouse.mjs';
import { median, pct, run, summarize } from './lib/load.mjs';
import { cpuCount, cpuMeter, hasTaskset, machine, sh, sleep, startNode } from './lib/proc.mjs';
import { summarizeProfile } from './lib/profile.mjs';
import { formatWithBiome, writeReport } from './lib/report.mjs';
import { BENCH_DEALER, seedNetwork } from './lib/seed.mjs';
import { adminStage } from './stages/admin.mjs';
import { curveStage, writeCurveSvg } from './stages/curve.mjs';
import { loggingStage } from './stages/logging.mjs';
import { mailStage } from './stages/mail.mjs';
import { partnerStage } from './stages/partner.mjs';
import { payeesStage } from './stages/payees.mjs';
import { peersStage } from './stages/peers.mjs';
import { routingStage } from './stages/routing.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** A line of the run's log, with the time. */
const log = (...x) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${x.join(' ')}\n`);

export const STAGES = ['main', 'logging', 'peers', 'curve', 'partner', 'admin', 'mail', 'payees', 'routing'];
/** The stages whose results are one field of results.json each (a partial run keeps the others'). */
const FIELD_STAGES = STAGES.filter((s) => s !== 'main');

/** `--name=value` (or `--flag`) arguments; a bare `--` (pnpm's separator) is skipped. */
function parseArgs(argv) {
  const o = {};
  for (const a of argv) {
    if (a === '--') continue;
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a} (see bench/README.md)`);
    o[m[1]] = m[2] ?? true;
  }
  return o;
}

const list = (v, def) => (v === undefined || v === true ? def : String(v).split(',').filter(Boolean));
const num = (v, def) => {
  if (v === undefined || v === true) return def;
  const n = Number(String(v).replace(/_/g, ''));
  if (!Number.isFinite(n) || n <= 0) throw new Error(`not a positive number: ${v}`);
  return n;
};

// The load generator (this process) on the last core, the servers on the first.
const SPLIT = hasTaskset && cpuCount > 1;
if (SPLIT && !process.env.BENCH_PINNED) {
  const child = spawn('taskset', ['-c', String(cpuCount - 1), process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}

function env(name, def) {
  const v = process.env[name];
  return v === undefined || v === '' ? def : Number(v);
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const only = list(a.only, STAGES);
  const unknown = only.filter((x) => !STAGES.includes(x));
  if (unknown.length) throw new Error(`unknown stage ${unknown.join(', ')}; stages: ${STAGES.join(', ')}`);
  const opts = {
    only,
    sizes: list(a.sizes, ['10000', '100000', '1000000']).map((x) => num(x)),
    peersDealers: num(a['peers-dealers'], 100_000),
    scale: num(a.scale, 100_000),
    routingInstallers: num(a['routing-installers'], 100_000),
    routingDealers: num(a['routing-dealers'], 1_000_000),
    bulk: num(a.bulk, 10_000),
    mailScale: num(a['mail-scale'], 50_000),
    pollSeconds: num(a['poll-seconds'], 30),
    rounds: num(a.rounds, 3),
    duration: num(a.duration, 10),
    warmup: num(a.warmup, 3),
    connections: num(a.connections, 50),
    exportRuns: num(a['export-runs'], 3),
    loggingEndpoint: a['logging-endpoint'] === true ? undefined : a['logging-endpoint'],
    peersDir: a['peers-dir'] ?? process.env.BENCH_PEERS_DIR ?? join(root, '..', 'shared', 'peers'),
  };
  const outDir = a.out ?? process.env.BENCH_OUT ?? here;
  const skipBuild = a['skip-build'] || process.env.BENCH_SKIP_BUILD;
  const started = Date.now();
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const ctx = {
    root,
    here,
    stamp,
    log,
    opts,
    // The bundle the stages run: built below into .dist-perf, or with --skip-build the one already
    // there (else the `pnpm build` output, dist/); --api-dist=FOLDER (inside apps/api) picks one.
    apiOut:
      a['api-dist'] ?? (skipBuild && !existsSync(join(root, 'apps/api/.dist-perf/server.js')) ? 'dist' : '.dist-perf'),
    webDist: join(tmpdir(), 'dn-bench-web'),
    serverCores: SPLIT ? '0' : null,
    pgBase: (process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, ''),
    logDir: join(tmpdir(), `dn-bench-${stamp}-logs`),
  };
  log(`stages: ${only.join(', ')}; results to ${outDir}`);

  // 1. Production builds, into private folders (the web app only for the main stage).
  if (!skipBuild) {
    if (!a['api-dist']) {
      log('building the api (production bundle)');
      sh(process.execPath, ['build.mjs'], {
        cwd: join(root, 'apps/api'),
        env: { ...process.env, OUT_DIR: ctx.apiOut },
      });
    }
    if (only.includes('main')) {
      log('building the web app (production)');
      sh(
        join(root, 'apps/web/node_modules/.bin/vite'),
        ['build', '--outDir', ctx.webDist, '--emptyOutDir', '--logLevel', 'warn'],
        { cwd: join(root, 'apps/web') },
      );
    }
  }

  // Server logs of this run (removed at the end).
  mkdirSync(ctx.logDir, { recursive: true });
  const results = { startedAt: new Date().toISOString(), machine: machine(), stages: {}, notes: [] };
  ctx.admin = new pg.Client({ connectionString: `${ctx.pgBase}/postgres` });
  await ctx.admin.connect();
  results.machine.pgVersion = (await ctx.admin.query('show server_version')).rows[0].server_version;
  const commit = commitOf();
  const stage = async (name, fn) => {
    if (!only.includes(name)) return;
    const t0 = Date.now();
    const startedAt = new Date().toISOString();
    log(`stage ${name}`);
    await fn();
    results.stages[name] = { startedAt, seconds: (Date.now() - t0) / 1000, commit, skipBuild: Boolean(skipBuild) };
  };
  try {
    await stage('main', async () => Object.assign(results, await mainStage(ctx)));
    await stage('logging', async () => {
      results.logging = await loggingStage(ctx);
    });
    await stage('peers', async () => {
      results.peers = await peersStage(ctx);
    });
    await stage('curve', async () => {
      results.curve = await curveStage(ctx);
    });
    await stage('partner', async () => {
      results.partner = await partnerStage(ctx);
    });
    await stage('admin', async () => {
      results.admin = await adminStage(ctx);
    });
    await stage('mail', async () => {
      results.mail = await mailStage(ctx);
    });
    await stage('payees', async () => {
      results.payees = await payeesStage(ctx);
    });
    await stage('routing', async () => {
      results.routing = await routingStage(ctx);
    });
  } finally {
    await ctx.admin.end();
    rmSync(ctx.logDir, { recursive: true, force: true });
  }
  results.finishedAt = new Date().toISOString();
  results.totalSeconds = (Date.now() - started) / 1000;

  // A partial run keeps what the results file already holds for the stages it did not run.
  const file = join(outDir, 'results.json');
  if (STAGES.some((x) => !only.includes(x)) && existsSync(file)) {
    const prev = JSON.parse(readFileSync(file, 'utf8'));
    const prevStages = prev.stages ?? { main: { startedAt: prev.startedAt, seconds: prev.totalSeconds } };
    if (!only.includes('main')) {
      for (const [k, v] of Object.entries(prev)) {
        if (![...FIELD_STAGES, 'stages', 'startedAt', 'finishedAt', 'totalSeconds', 'machine', 'notes'].includes(k))
          results[k] = v;
      }
      results.notes = prev.notes ?? [];
    }
    for (const k of FIELD_STAGES) if (!only.includes(k) && prev[k]) results[k] = prev[k];
    results.stages = {
      ...Object.fromEntries(Object.entries(prevStages).filter(([k]) => !only.includes(k))),
      ...results.stages,
    };
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'results.md'), writeReport(results));
  const svg = writeCurveSvg(results.curve, outDir);
  formatWithBiome([file, join(outDir, 'results.md')]);
  log(`done in ${results.totalSeconds.toFixed(0)} s: ${join(outDir, 'results.md')}${svg ? `, ${svg}` : ''}`);
}

/** The stage `main`: the steps numbered below, on its own database. Returns its results' fields. */
async function mainStage(ctx) {
  const cfg = {
    dealers: env('BENCH_DEALERS', 100_000),
    links: env('BENCH_LINKS', 20_000),
    audits: env('BENCH_AUDITS', 300_000),
    calls: env('BENCH_CALLS', 50_000),
    duration: env('BENCH_DURATION', 7),
    runs: env('BENCH_RUNS', 3),
    warmup: env('BENCH_WARMUP', 2),
    connections: env('BENCH_CONNECTIONS', 10),
  };
  const { serverCores, pgBase, webDist, apiOut, log, admin } = ctx;
  const dbName = `dn_bench_${ctx.stamp}`;
  const dbUrl = `${pgBase}/${dbName}`;
  const results = {
    config: cfg,
    database: dbName,
    notes: [],
    endpoints: {},
  };
  try {
    const out = sh(process.execPath, [join(root, 'apps/web/scripts/check-bundle.mjs'), '--json', webDist], {
      cwd: join(root, 'apps/web'),
    });
    results.bundle = JSON.parse(out);
  } catch (e) {
    // check-bundle exits 1 when over budget but still prints its JSON.
    const m = /(\{[\s\S]*\})\s*$/.exec(String(e.message));
    results.bundle = m ? JSON.parse(m[1]) : { error: String(e.message).slice(0, 500) };
  }

  // 2. A fresh database; statement logging on so the app's SQL can be captured (lib/capture.mjs).
  await admin.query(`create database ${dbName}`);
  const canCapture = logSize() !== null;
  if (canCapture) await admin.query(`alter database ${dbName} set log_min_duration_statement = 0`);
  else results.notes.push(`PostgreSQL log ${PG_LOG} is not readable: no SQL capture, no baseline, no plans.`);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();

  const port = 3900 + Math.floor(Math.random() * 50);
  const base = `http://127.0.0.1:${port}`;
  const adminCreds = { username: 'bench-admin', password: 'bench-admin-password' };
  const serverEnv = {
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789-0123456789-abcdef',
    ADMIN_USERNAME: adminCreds.username,
    ADMIN_PASSWORD: adminCreds.password,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    WEB_DIST: webDist,
    // Issue 39: payout details are sealed at rest; production refuses to start without the key (as lib/app.mjs).
    DATA_ENCRYPTION_KEY: Buffer.from('bench-data-encryption-key-012345').toString('base64'),
    // Load arrives from 127.0.0.1 with X-Forwarded-For: each simulated client has its own address.
    TRUST_PROXY: '127.0.0.1',
  };
  const startApp = (nodeArgs = []) =>
    startNode({
      nodeArgs,
      name: 'server',
      script: join(root, 'apps/api', apiOut, 'server.js'),
      cwd: join(root, 'apps/api'),
      env: serverEnv,
      cores: serverCores,
      readyUrl: `${base}/readyz`,
    });

  let server;
  let baseline;
  try {
    log(`database ${dbName}; starting the server (runs the migrations)`);
    server = await startApp();
    log(`seeding ${cfg.dealers} dealers, ${cfg.links} links, ${cfg.audits} audit rows, ${cfg.calls} calls`);
    results.seed = await seedNetwork(db, cfg);
    log(`seeded in ${results.seed.seconds.toFixed(1)} s`);

    const adminCookie = await signIn(base, '/api/admin/login', adminCreds);
    const dealerCookie = await signIn(base, '/api/dealer/login', {
      username: BENCH_DEALER.email,
      password: BENCH_DEALER.password,
    });

    const page = '/api/admin/dealers?q=smith&status=approved&sort=fullName&dir=asc&page=1&pageSize=50';
    const endpoints = [
      { name: 'landing-videos', path: '/api/landing-videos', cookie: null, every: '30 s' },
      { name: 'affiliate-stats', path: '/api/affiliate/stats', cookie: dealerCookie, every: '5 s' },
      { name: 'dealer-info', path: '/api/dealer/info', cookie: dealerCookie, every: '10 s' },
      { name: 'admin-dealers', path: '/api/admin/dealers', cookie: adminCookie, every: '10 s' },
      { name: 'admin-dealers-page', path: page, cookie: adminCookie, every: '10 s (search + filter + sort)' },
      { name: 'admin-dealer-metrics', path: '/api/admin/dealer-metrics', cookie: adminCookie, every: '10 s' },
      { name: 'call-schedules', path: '/api/call-schedules', cookie: adminCookie, every: '15 s' },
      { name: 'affiliate-tracking', path: '/api/admin/affiliate-tracking', cookie: adminCookie, every: '5 s' },
    ];

    // 3. Which endpoints exist, and the SQL each one runs.
    for (const e of endpoints) {
      const off = canCapture ? logSize() : 0;
      const r = await fetch(base + e.path, { headers: e.cookie ? { cookie: e.cookie } : {} });
      const body = await r.text();
      e.status = r.status;
      e.etag = r.headers.get('etag');
      e.bytes = body.length;
      e.setCookie = r.headers.get('set-cookie');
      if (r.status !== 200) {
        results.endpoints[e.name] = {
          path: e.path,
          skipped: `GET answered ${r.status} (${r.status === 404 ? 'not implemented yet' : body.slice(0, 120)})`,
        };
        log(`skip ${e.name}: ${results.endpoints[e.name].skipped}`);
        continue;
      }
      if (canCapture) {
        await sleep(300);
        e.statements = statementsSince(off, dbName);
      }
    }
    const live = endpoints.filter((e) => e.status === 200);

    // 4. Plans of the admin page and metrics queries, as the app runs them.
    results.plans = {};
    for (const name of ['admin-dealers-page', 'admin-dealers', 'admin-dealer-metrics']) {
      const e = live.find((x) => x.name === name);
      if (!e?.statements) continue;
      results.plans[name] = [];
      // The session's read with its admin is one row by primary keys: left out of the plans.
      const planned = e.statements.filter(
        (s) => !isFramework(s) && /^\s*(select|with)/i.test(s.sql) && !/"(admins|sessions)"/.test(s.sql),
      );
      for (const s of planned) {
        const p = await db.query(`explain (analyze, buffers) ${s.sql}`, s.params);
        results.plans[name].push({ sql: s.sql, params: s.params, plan: p.rows.map((r) => r['QUERY PLAN']).join('\n') });
      }
    }

    // The export's batch query, as the app runs it (a full download while statements are logged).
    const exportPath = '/api/admin/dealers/export';
    if (canCapture) {
      const off = logSize();
      const r = await fetch(base + exportPath, { headers: { cookie: adminCookie } });
      if (r.status === 200) {
        await r.arrayBuffer();
        await sleep(300);
        const batches = statementsSince(off, dbName).filter((x) => /^\s*select/i.test(x.sql) && /limit/i.test(x.sql));
        results.plans.export = [];
        // The first batch and one deep in the file (keyset: every batch should cost the same).
        for (const x of [batches[0], batches[Math.floor(batches.length / 2)]].filter(Boolean)) {
          const p = await db.query(`explain (analyze, buffers) ${x.sql}`, x.params);
          results.plans.export.push({
            sql: x.sql,
            params: x.params,
            plan: p.rows.map((row) => row['QUERY PLAN']).join('\n'),
          });
        }
        results.exportBatches = batches.length;
      } else await r.body?.cancel();
    }

    // Statement logging off for the measurements: restart with fresh connections.
    if (canCapture) {
      await admin.query(`alter database ${dbName} reset log_min_duration_statement`);
      await server.stop();
      server = await startApp();
    }

    // The baseline runs beside the app (same core) from here on: app and baseline runs alternate,
    // so the machine's background load weighs on both alike.
    const replay = live.filter((e) => e.statements?.length);
    const bport = port + 60;
    const bbase = `http://127.0.0.1:${bport}`;
    if (replay.length) {
      const routesFile = join(tmpdir(), `${dbName}-baseline.json`);
      writeFileSync(
        routesFile,
        JSON.stringify(replay.map((e) => ({ name: e.name, statements: e.statements.filter((s) => !isFramework(s)) }))),
      );
      baseline = await startNode({
        name: 'baseline',
        script: join(here, 'baseline.mjs'),
        cwd: here,
        env: { DATABASE_URL: dbUrl, PORT: String(bport), BASELINE_ROUTES: routesFile },
        cores: serverCores,
        readyUrl: `${bbase}/healthz`,
      });
    }

    // 5. Each polled endpoint: throughput at `connections`, session writes per poll.
    const sessionsWrites = async () => {
      await sleep(1200); // PostgreSQL flushes table statistics about once a second
      await db.query('select pg_stat_clear_snapshot()');
      const r = await db.query(
        `select coalesce(n_tup_ins + n_tup_upd + n_tup_del, 0)::int w from pg_stat_user_tables where relname = 'sessions'`,
      );
      return r.rows[0]?.w ?? 0;
    };
    const sessionRows = async () => (await db.query('select count(*)::int n from sessions')).rows[0].n;
    const measure = async (url, headers, extra = {}) => {
      await run({ url, duration: cfg.warmup, connections: cfg.connections, headers, ...extra });
      const runs = [];
      for (let i = 0; i < cfg.runs; i++)
        runs.push(await run({ url, duration: cfg.duration, connections: cfg.connections, headers, ...extra }));
      return summarize(runs);
    };

    for (const e of live) {
      log(`load ${e.name}`);
      const headers = e.cookie ? { cookie: e.cookie } : {};
      const w0 = await sessionsWrites();
      const rows0 = await sessionRows();
      const hasBaseline = Boolean(baseline && e.statements?.length);
      const burl = `${bbase}/b/${e.name}`;
      await run({ url: base + e.path, duration: cfg.warmup, connections: cfg.connections, headers });
      if (hasBaseline) await run({ url: burl, duration: cfg.warmup, connections: cfg.connections });
      const appRuns = [];
      const baseRuns = [];
      let cpu = null;
      for (let k = 0; k < cfg.runs; k++) {
        const meter = cpuMeter(server.pid);
        appRuns.push(await run({ url: base + e.path, duration: cfg.duration, connections: cfg.connections, headers }));
        cpu = meter.stop();
        if (hasBaseline) baseRuns.push(await run({ url: burl, duration: cfg.duration, connections: cfg.connections }));
      }
      const s = summarize(appRuns);
      const w1 = await sessionsWrites();
      const rows1 = await sessionRows();
      const polls = s.runs.reduce((a, r) => a + r.reqPerSec, 0) * cfg.duration + s.reqPerSec * cfg.warmup;
      const r = {
        path: e.path,
        pollEvery: e.every,
        responseBytes: e.bytes,
        app: s,
        sessionsWrites: w1 - w0,
        sessionsWritesPerPoll: (w1 - w0) / Math.max(1, polls),
        sessionRowsCreated: rows1 - rows0,
        anonymousSetCookie: e.cookie ? undefined : Boolean(e.setCookie),
        etag: e.etag,
        cpu,
      };
      if (hasBaseline) {
        r.baseline = summarize(baseRuns);
        r.baselineStatements = e.statements
          .filter((x) => !isFramework(x))
          .map((x) => x.sql.replace(/\s+/g, ' ').slice(0, 300));
        r.ratio = r.baseline.reqPerSec ? s.reqPerSec / r.baseline.reqPerSec : null;
      }
      if (e.etag) {
        log(`load ${e.name} (If-None-Match)`);
        r.conditional = await measure(base + e.path, { ...headers, 'if-none-match': e.etag });
      }
      // The latency of one client at a time: service time, not queueing.
      r.single = summarize([
        await run({ url: base + e.path, duration: Math.min(5, cfg.duration), connections: 1, headers }),
      ]);
      results.endpoints[e.name] = r;
    }

    // 6. Signup and login.
    let n = 0;
    const ip = (a, i) => `10.${a}.${(i >> 8) & 255}.${i & 255}`;
    log('load signup');
    const signup = [];
    for (let i = 0; i < cfg.runs; i++) {
      signup.push(
        await run({
          url: base,
          duration: cfg.duration,
          connections: cfg.connections,
          requests: [
            {
              method: 'POST',
              path: '/api/dealer-signup',
              setupRequest: (req) => {
                n++;
                return {
                  ...req,
                  headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(1, n) },
                  body: JSON.stringify({
                    tier: 'Affiliate',
                    fullName: `Bench Signup ${n}`,
                    email: `signup.${Date.now().toString(36)}.${n}@bench.example.com`,
                    phoneE164: '+15551230000',
                    addressJson: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
                    onboardingCallOk: true,
                    referredBy: 'none',
                  }),
                };
              },
            },
          ],
        }),
      );
    }
    results.signup = summarize(signup);

    log('load login');
    const login = [];
    for (let i = 0; i < cfg.runs; i++) {
      login.push(
        await run({
          url: base,
          duration: cfg.duration,
          connections: 4,
          requests: [
            {
              method: 'POST',
              path: '/api/dealer/login',
              setupRequest: (req) => ({
                ...req,
                headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(2, ++n % 60_000) },
                body: JSON.stringify({ username: BENCH_DEALER.email, password: BENCH_DEALER.password }),
              }),
            },
          ],
        }),
      );
    }
    results.login = summarize(login);

    // 7. A login burst at the rate-limit ceiling while dealers poll at 100 a second (autocannon: in per-second bursts).
    const stats = live.find((e) => e.name === 'affiliate-stats') ?? live[0];
    if (stats) {
      log('login burst vs polling');
      const rate = 100;
      const pollOpts = {
        url: base + stats.path,
        duration: cfg.duration,
        connections: 10,
        headers: stats.cookie ? { cookie: stats.cookie } : {},
        overallRate: rate,
      };
      let meter = cpuMeter(server.pid);
      const quiet = await run(pollOpts);
      const quietCpu = meter.stop();
      const attackers = 20;
      let k = 0;
      const burst = run({
        url: base,
        duration: cfg.duration,
        connections: 8,
        requests: [
          {
            method: 'POST',
            path: '/api/dealer/login',
            setupRequest: (req) => {
              k++;
              return {
                ...req,
                headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(3, k % attackers) },
                body: JSON.stringify({
                  username: `nobody${k % attackers}@bench.example.com`,
                  password: 'wrong-password',
                }),
              };
            },
          },
        ],
      });
      meter = cpuMeter(server.pid);
      const loud = await run(pollOpts);
      const loudCpu = meter.stop();
      const b = await burst;
      results.loginBurst = {
        endpoint: stats.name,
        pollRate: rate,
        attackers,
        limitPerIp: '30 failed sign-ins per 15 minutes (DEFAULT_LIMITS.loginPerIp)',
        quiet: { p50: quiet.p50, p95: quiet.p95, p99: quiet.p99, cpu: quietCpu },
        underBurst: { p50: loud.p50, p95: loud.p95, p99: loud.p99, cpu: loudCpu },
        burst: { reqPerSec: b.reqPerSec, statuses: b.statuses, p95: b.p95 },
        ratio: quiet.p95 ? loud.p95 / quiet.p95 : null,
      };
    }

    // 8. The CSV export: rows/s, memory, first byte; connection released on disconnect.
    const probe = await fetch(base + exportPath, { headers: { cookie: adminCookie } }).catch(() => null);
    await probe?.body?.cancel().catch(() => {});
    await sleep(500);
    if (!probe || probe.status === 404) {
      results.export = { skipped: `GET ${exportPath} answered ${probe?.status ?? 'nothing'} (not implemented yet)` };
    } else {
      log('export');
      const downloads = [];
      const meter = cpuMeter(server.pid);
      for (let i = 0; i < cfg.runs; i++)
        downloads.push(await downloadExport({ base, path: exportPath, cookie: adminCookie, pid: server.pid }));
      const cpu = meter.stop();
      const disconnect = await disconnectMidDownload({
        base,
        path: exportPath,
        cookie: adminCookie,
        pg: db,
        database: dbName,
      });
      const healthy = (await fetch(`${base}/readyz`)).status === 200;
      results.export = {
        rows: median(downloads.map((d) => d.rows)),
        rowsPerSec: median(downloads.map((d) => d.rowsPerSec)),
        ttfbMs: median(downloads.map((d) => d.ttfbMs)),
        seconds: median(downloads.map((d) => d.seconds)),
        rssGrowthBytes: median(downloads.map((d) => d.rssGrowthBytes)),
        rssGrowthMaxBytes: Math.max(...downloads.map((d) => d.rssGrowthBytes ?? 0)),
        status: downloads[0].status,
        contentType: downloads[0].contentType,
        downloads,
        cpu,
        disconnect: { ...disconnect, serverHealthyAfter: healthy },
      };
    }

    // 9. Static assets: precompressed and immutable; Lighthouse on the landing page.
    results.assets = await assetCheck(base);
    if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
      log('lighthouse (mobile) on /');
      results.lighthouse = lighthouse(`${base}/`, {
        binDir: join(here, 'node_modules/.bin'),
        outFile: join(tmpdir(), `${dbName}-lighthouse.json`),
        serverPid: server.pid,
      });
      // The light pages (decision 1160): the quote form and the two status pages, with a status each.
      results.lighthouseLight = await lighthouseLightPages(base, db, dbName, server.pid);
    }

    await baseline?.stop();
    baseline = null;
    await server.stop();
    server = null;

    // 11. What the server spends its time on, where a target is missed: a CPU profile per case.
    const profDir = join(tmpdir(), `${dbName}-profiles`);
    const cases = Object.entries(results.endpoints)
      .filter(([, r]) => r.ratio !== undefined && r.ratio !== null && r.ratio < 0.6)
      .map(([name, r]) => ({ name, path: r.path, cookie: live.find((e) => e.name === name).cookie }));
    if (results.export && !results.export.skipped && results.export.rowsPerSec < 50_000) {
      cases.push({ name: 'export', path: exportPath, cookie: adminCookie, export: true });
    }
    results.profiles = {};
    for (const c of cases) {
      log(`profile ${c.name}`);
      const dir = join(profDir, c.name);
      server = await startApp(['--cpu-prof', '--cpu-prof-dir', dir]);
      if (c.export) await downloadExport({ base, path: c.path, cookie: c.cookie, pid: server.pid });
      else
        await run({
          url: base + c.path,
          duration: Math.min(5, cfg.duration),
          connections: cfg.connections,
          headers: c.cookie ? { cookie: c.cookie } : {},
        });
      await server.stop();
      server = null;
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      results.profiles[c.name] = file ? summarizeProfile(join(dir, file)) : { error: 'no profile written' };
    }

    // 12. argon2id at OWASP parameters, on the load generator's core.
    const times = [];
    for (let i = 0; i < 12; i++) {
      const t = performance.now();
      await argon2.hash(`password-${i}`, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
      times.push(performance.now() - t);
    }
    results.argon2 = { params: 'argon2id m=19456 KiB, t=2, p=1', medianMs: median(times.slice(2)), samplesMs: times };

    results.capacity = capacity(results);
    if (results.capacity.dashboards) {
      // Check the estimate: dashboards polling at their rate (stats 2/3, info 1/3 of the polls), in
      // autocannon's per-second bursts (each second's share sent at its start): harsher than `paced`.
      const s = live.find((e) => e.name === 'affiliate-stats');
      const i = live.find((e) => e.name === 'dealer-info');
      server = await startApp();
      await run({
        url: base + s.path,
        duration: cfg.warmup,
        connections: cfg.connections,
        headers: { cookie: s.cookie },
      });
      await run({
        url: base + i.path,
        duration: cfg.warmup,
        connections: cfg.connections,
        headers: { cookie: i.cookie },
      });
      results.capacity.checks = [];
      // From 70% of the estimate down until p95 is under 100 ms: the largest passing count is the answer.
      for (const share of [0.7, 0.5, 0.35, 0.25, 0.15]) {
        const n = Math.floor(results.capacity.dashboards * share);
        log(`capacity check: ${n} dashboards`);
        const opts = (e, rate) => ({
          url: base + e.path,
          duration: cfg.duration,
          connections: 20,
          headers: { cookie: e.cookie, 'if-none-match': e.etag ?? '' },
          overallRate: Math.max(1, Math.round(rate)),
          keepLatencies: true,
        });
        const [a, b] = await Promise.all([run(opts(s, n * 0.2)), run(opts(i, n * 0.1))]);
        const all = [...a.latencies, ...b.latencies].sort((x, y) => x - y);
        results.capacity.checks.push({
          dashboards: n,
          share,
          reqPerSec: a.reqPerSec + b.reqPerSec,
          p50: pct(all, 50),
          p95: pct(all, 95),
          p99: pct(all, 99),
        });
        const last = results.capacity.checks.at(-1);
        if (last.p95 < 100) {
          results.capacity.holdsAtP95Under100 = last.dashboards;
          break;
        }
      }
      await server.stop();
      server = null;
    }
  } finally {
    await server?.stop().catch(() => {});
    await baseline?.stop().catch(() => {});
    await db.end().catch(() => {});
    await admin.query(`drop database if exists ${dbName} with (force)`).catch((e) => log(`drop failed: ${e.message}`));
  }
  return results;
}

/**
 * The commit the run measures, as results.md names it: HEAD, with `-dirty` when apps/ or packages/
 * hold uncommitted changes (with --skip-build or --api-dist, the bundle is whatever was built before).
 */
function commitOf() {
  const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git(['rev-parse', '--short', 'HEAD']);
  if (head.status !== 0) return null;
  const dirty = git(['status', '--porcelain', '--', 'apps', 'packages']).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

async function signIn(base, path, body) {
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

async function assetCheck(base) {
  const html = await (await fetch(`${base}/`)).text();
  const js = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  if (!js) return { error: 'no script in index.html' };
  const out = { asset: js };
  for (const enc of ['br', 'gzip']) {
    const r = await fetch(base + js, { headers: { 'accept-encoding': enc } });
    await r.arrayBuffer();
    out[enc] = { contentEncoding: r.headers.get('content-encoding'), cacheControl: r.headers.get('cache-control') };
  }
  const idx = await fetch(`${base}/`);
  out.indexCacheControl = idx.headers.get('cache-control');
  return out;
}

/**
 * Dealer dashboards one server holds: a dashboard polls stats every 5 s and info every 10 s,
 * i.e. 0.3 requests/s. Per-poll cost is the reciprocal of the measured throughput (the server
 * saturated at `connections` concurrent requests); the p95 at that load decides whether the
 * figure is under the 100 ms bar.
 */
function capacity(results) {
  const s = results.endpoints['affiliate-stats'];
  const i = results.endpoints['dealer-info'];
  if (!s?.app || !i?.app) return { skipped: 'needs both affiliate-stats and dealer-info' };
  const pick = (e) => e.conditional ?? e.app;
  const cost = 0.2 / pick(s).reqPerSec + 0.1 / pick(i).reqPerSec; // server-seconds per dashboard-second
  const p95 = Math.max(pick(s).p95, pick(i).p95);
  return {
    model:
      'stats every 5 s + info every 10 s = 0.3 polls/s per dashboard (conditional requests, as browsers send them)',
    statsReqPerSec: pick(s).reqPerSec,
    infoReqPerSec: pick(i).reqPerSec,
    p95AtSaturationMs: p95,
    dashboards: Math.floor(1 / cost),
    dashboardsAt70Percent: Math.floor(0.7 / cost),
  };
}

/**
 * Lighthouse (mobile) on the light pages (decision 1160): /quote, and the two status pages with a
 * status behind them (a quote request and an application made here, their status links set to a
 * token this run knows: only hashes are stored).
 */
async function lighthouseLightPages(base, db, dbName, serverPid) {
  const token = 'BenchLightToken'.padEnd(43, '0');
  const hash = createHash('sha256').update(token).digest('hex');
  const send = (path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify(body),
    });
  // Once more on a failed connection: in the 2026-11-29 21:34 run the first POST here, after the
  // landing's minutes of Lighthouse runs, failed with "fetch failed" (its cause was not kept; a
  // kept-alive socket the server had closed meanwhile is the likely one, and fetch does not retry a
  // POST). The error now names the cause.
  const post = (path, body) => send(path, body).catch(() => send(path, body));
  try {
    const quote = await post('/api/quote-requests', {
      fullName: 'Bench Home',
      email: 'bench-light-home@example.com',
      phone: '512-555-0150',
      street: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      consent: true,
    });
    const { id } = await quote.json();
    await db.query('update jobs set status_token_hash = $1 where id = $2', [hash, id]);
    await post('/api/dealer-signup', {
      tier: 'Affiliate',
      fullName: 'Bench Light',
      email: 'bench-light-dealer@example.com',
      phoneE164: '(555) 765-4321',
      addressJson: { street: '12 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
      referredBy: 'none',
      onboardingCallOk: true,
    });
    await db.query(
      `update application_status_links set token_hash = $1
         where dealer_id = (select id from dealers where email = 'bench-light-dealer@example.com')`,
      [hash],
    );
  } catch (err) {
    return {
      error: `could not make the status pages' data: ${err.message}${err.cause ? ` (${err.cause.code ?? err.cause.message})` : ''}`,
    };
  }
  const out = {};
  for (const [name, path] of [
    ['quote', '/quote'],
    ['installation', `/quote/${token}`],
    ['application', `/application/${token}`],
  ]) {
    log(`lighthouse (mobile) on ${path.replace(token, '<token>')}`);
    const r = lighthouse(`${base}${path}`, {
      binDir: join(here, 'node_modules/.bin'),
      outFile: join(tmpdir(), `${dbName}-lighthouse-${name}.json`),
      serverPid,
    });
    out[name] = { ...r, ok: r.ok && r.lcpMs <= 1_500 };
  }
  return out;
}
