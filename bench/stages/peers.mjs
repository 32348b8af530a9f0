// Stage `peers`: the app against B0 (fastify-floor) and B1 (express-classic) from ../shared/peers,
// in one session, as results-vs-project-2026-11-23.md measured them: each side on its own database
// of the same size, the servers pinned to core 0, each endpoint's runs alternating B0, B1, the
// same-SQL baseline, the app (its /api route, the tRPC batch GET the browser sends, the 304), for
// `rounds` rounds; the median round is reported. The app runs with the production log level.

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  appCookies,
  appFixture,
  captureStatements,
  diagnose,
  drain,
  freePort,
  plansOf,
  startApp,
} from '../lib/app.mjs';
import { isFramework } from '../lib/capture.mjs';
import { median, pairedRatio, run } from '../lib/load.mjs';
import { peerSignIn, preparePeers, seedPeers, startPeer } from '../lib/peers.mjs';
import { cpuMeter, startNode } from '../lib/proc.mjs';

/** The admin console's first page, as apps/web/src/console/admin/DealersTab.tsx asks for it. */
export const ADMIN_PAGE_INPUT = { sort: 'createdAt', dir: 'desc', page: 1, pageSize: 50 };

/**
 * The polls compared. `floor`: the B0 row the app is held to when B0's own answer reads nothing
 * (B0's auth/user returns a constant). `trpc`: the procedure the browser polls through /trpc
 * (auth/user is asked over REST by apps/web/src/shared/lib/auth.ts, so it has none).
 */
export const POLLS = [
  {
    key: 'auth-user',
    label: 'GET /api/auth/user (dealer)',
    role: 'dealer',
    app: '/api/auth/user',
    peer: '/api/auth/user',
    floor: 'dealer-info',
    target: true,
  },
  {
    key: 'dealer-info',
    label: 'GET /api/dealer/info (dealer)',
    role: 'dealer',
    app: '/api/dealer/info',
    peer: '/api/dealer/info',
    trpc: [['account.info']],
    target: true,
  },
  {
    key: 'affiliate-stats',
    label: 'GET /api/affiliate/stats (dealer)',
    role: 'dealer',
    app: '/api/affiliate/stats',
    peer: '/api/affiliate/stats',
    trpc: [['account.affiliateStats']],
    target: true,
  },
  {
    key: 'admin-page',
    label: 'admin dealers, first page of 50 (admin)',
    role: 'admin',
    app: '/api/admin/dealers',
    peer: '/api/admin/dealers?limit=50',
    trpc: [['admin.dealers', ADMIN_PAGE_INPUT]],
    target: true,
  },
  {
    key: 'dealer-metrics',
    label: 'GET /api/admin/dealer-metrics (admin)',
    role: 'admin',
    app: '/api/admin/dealer-metrics',
    peer: '/api/admin/dealer-metrics',
    trpc: [['admin.dealerMetrics']],
  },
];

/**
 * The batches the pages send when their polls fall due together (httpBatchLink, GET): the dealer
 * dashboard's stats (5 s) and info (10 s); the admin console's summary cards and dealer page (10 s).
 * Expected rate: one batch costs its procedures' /api costs together, 1 / (1/a + 1/b).
 */
export const BATCHES = [
  {
    key: 'dashboard-batch',
    label: 'dealer dashboard batch',
    role: 'dealer',
    procs: [['account.affiliateStats'], ['account.info']],
    of: ['affiliate-stats', 'dealer-info'],
  },
  {
    key: 'admin-batch',
    label: 'admin console batch',
    role: 'admin',
    procs: [['admin.dealerMetrics'], ['admin.dealers', ADMIN_PAGE_INPUT]],
    of: ['dealer-metrics', 'admin-page'],
  },
];

/** The URL @trpc/client's httpBatchLink builds for a GET batch (inputs keyed by position; undefined left out). */
export function trpcUrl(procs) {
  const inputs = Object.fromEntries(procs.map(([, input], i) => [i, input]).filter(([, v]) => v !== undefined));
  return `/trpc/${procs.map(([n]) => n).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

const ip = (a, i) => `10.${a}.${(i >> 8) & 255}.${i & 255}`;

/** Unique-email signups; the peers get their own bench body (shared/peers/bench.mjs), the app the same answers in its schema. */
function signupLoad(kind, base) {
  let n = 0;
  const tag = Date.now().toString(36);
  const body =
    kind === 'app'
      ? (i) => ({
          tier: 'Authorized',
          fullName: 'Bench Applicant',
          companyName: 'Bench Solar LLC',
          email: `bench.${tag}.${i}@bench.example.com`,
          phoneE164: '+15125550123',
          addressJson: { street: '123 Main St', city: 'Austin', state: 'TX', zipCode: '78701', country: 'US' },
          entityType: 'LLC',
          licensedInstallers: true,
          crewCount: 3,
          salesReps: 2,
          monthlyVolume: 5000,
          crmName: 'HubSpot',
          maintainInventory: false,
          onboardingCallOk: true,
          referredBy: 'none',
        })
      : (i) => ({
          tier: 'Authorized',
          fullName: 'Bench Applicant',
          companyName: 'Bench Solar LLC',
          email: `bench+${tag}.${i}@example.com`,
          phoneE164: '+15125550123',
          addressJson: { street: '123 Main St', city: 'Austin', state: 'TX', zipCode: '78701', country: 'US' },
          entityType: 'LLC',
          licensedInstallers: true,
          crewCount: 3,
          salesReps: 2,
          monthlyVolume: 5000,
          crmName: 'HubSpot',
          maintainInventory: false,
          productVerticals: ['Residential', 'HVAC'],
          onboardingCallOk: true,
          recruiterId: 'demo_dealer',
        });
  return {
    url: base,
    requests: [
      {
        method: 'POST',
        path: '/api/dealer-signup',
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(4, n % 65_000) },
            body: JSON.stringify(body(n)),
          };
        },
      },
    ],
  };
}

export async function peersStage(ctx) {
  const o = ctx.opts;
  const out = {
    startedAt: new Date().toISOString(),
    settings: {
      dealers: o.peersDealers,
      connections: o.connections,
      duration: o.duration,
      warmup: o.warmup,
      rounds: o.rounds,
      order: 'ABBA',
    },
    peersSource: o.peersDir,
    polls: {},
    batches: {},
    notes: [],
  };
  const peers = preparePeers({ source: o.peersDir, dest: join(ctx.here, '.peers'), log: ctx.log });
  const fx = await appFixture(ctx, { dealers: o.peersDealers, tag: 'peers', referrals: 25 });
  const servers = {};
  try {
    const p = await seedPeers({
      admin: ctx.admin,
      pgBase: ctx.pgBase,
      dir: peers.dir,
      dealers: o.peersDealers,
      log: ctx.log,
    });
    out.peersSeed = p.seedOutput;
    out.appSeed = fx.seed;

    // The statements the app runs per poll: the same-SQL baseline replays them, the plans explain them.
    const statements =
      (await captureStatements(
        ctx,
        fx,
        POLLS.map((x) => ({ name: x.key, path: x.app, role: x.role })),
      )) ?? {};
    if (!Object.keys(statements).length) out.notes.push('PostgreSQL log not readable: no same-SQL baseline, no plans.');

    servers.b0 = await startPeer({
      key: 'b0',
      dir: peers.dir,
      dbUrl: p.dbUrl,
      port: freePort(),
      cores: ctx.serverCores,
      logFile: join(ctx.logDir, 'b0.log'),
    });
    servers.b1 = await startPeer({
      key: 'b1',
      dir: peers.dir,
      dbUrl: p.dbUrl,
      port: freePort(),
      cores: ctx.serverCores,
      logFile: join(ctx.logDir, 'b1.log'),
    });
    servers.app = await startApp(ctx, fx, { name: 'app' });
    out.appLogLevel = servers.app.logLevel;
    const replay = POLLS.filter((x) => statements[x.key]?.length);
    if (replay.length) {
      const routesFile = join(ctx.logDir, 'peers-baseline-routes.json');
      writeFileSync(
        routesFile,
        JSON.stringify(
          replay.map((x) => ({ name: x.key, statements: statements[x.key].filter((s) => !isFramework(s)) })),
        ),
      );
      const bport = freePort();
      servers.base = await startNode({
        name: 'baseline',
        script: join(ctx.here, 'baseline.mjs'),
        cwd: ctx.here,
        env: { DATABASE_URL: fx.dbUrl, PORT: String(bport), BASELINE_ROUTES: routesFile },
        cores: ctx.serverCores,
        readyUrl: `http://127.0.0.1:${bport}/healthz`,
        logFile: join(ctx.logDir, 'baseline.log'),
      });
      servers.base.base = `http://127.0.0.1:${bport}`;
    }
    const cheap = { b0: '/api/landing-videos', b1: '/api/landing-videos', base: '/healthz', app: '/healthz' };
    const cookies = {
      b1: { dealer: await peerSignIn(servers.b1.base, 'dealer'), admin: await peerSignIn(servers.b1.base, 'admin') },
      app: await appCookies(servers.app.base),
    };

    // One check of each answer before anything is timed: status, size, ETag.
    const checks = {};
    for (const x of POLLS) {
      checks[x.key] = {};
      for (const [who, path, cookie] of [
        ['b0', x.peer, undefined],
        ['b1', x.peer, cookies.b1[x.role]],
        ['app', x.app, cookies.app[x.role]],
        ...(x.trpc ? [['trpc', trpcUrl(x.trpc), cookies.app[x.role]]] : []),
      ]) {
        const s = who === 'trpc' ? servers.app : servers[who];
        const r = await fetch(s.base + path, { headers: cookie ? { cookie } : {} });
        const text = await r.text();
        checks[x.key][who] = { path, status: r.status, bytes: Buffer.byteLength(text), etag: r.headers.get('etag') };
      }
    }
    out.checks = checks;

    // Each measured run: a warm-up, the run (server CPU metered), then the server drains.
    const once = async (who, opts) => {
      const s = servers[who === 'trpc' || who === 'app304' ? 'app' : who];
      await run({ ...opts, duration: o.warmup });
      await drain(s.base + (cheap[who] ?? cheap.app));
      const meter = cpuMeter(s.pid);
      // The machine is shared: the background load each run met goes into the results.
      const load = loadavg()[0];
      const r = await run({ ...opts, duration: o.duration });
      r.cpu = meter.stop();
      r.loadAvg = load;
      delete r.latencies;
      await drain(s.base + (cheap[who] ?? cheap.app));
      return r;
    };
    const participants = (x) => {
      const list = [
        ['b0', { url: servers.b0.base + x.peer }],
        ['b1', { url: servers.b1.base + x.peer, headers: { cookie: cookies.b1[x.role] } }],
      ];
      if (servers.base && statements[x.key]?.length) list.push(['base', { url: `${servers.base.base}/b/${x.key}` }]);
      list.push(['app', { url: servers.app.base + x.app, headers: { cookie: cookies.app[x.role] } }]);
      if (x.trpc)
        list.push(['trpc', { url: servers.app.base + trpcUrl(x.trpc), headers: { cookie: cookies.app[x.role] } }]);
      const etag = checks[x.key].app.etag;
      if (etag)
        list.push([
          'app304',
          { url: servers.app.base + x.app, headers: { cookie: cookies.app[x.role], 'if-none-match': etag } },
        ]);
      return list;
    };
    const rounds = {};
    for (let k = 0; k < o.rounds; k++) {
      for (const x of POLLS) {
        ctx.log(`peers round ${k + 1}/${o.rounds}: ${x.key}`);
        rounds[x.key] ??= {};
        // Forward in odd rounds, backward in even ones: a drifting machine favours no one, and
        // the app's /api, tRPC and 304 runs stay side by side for the paired ratios.
        const list = participants(x);
        for (const [who, opts] of k % 2 === 0 ? list : list.reverse()) {
          rounds[x.key][who] ??= [];
          rounds[x.key][who].push(await once(who, { ...opts, connections: o.connections }));
        }
      }
      for (const b of BATCHES) {
        ctx.log(`peers round ${k + 1}/${o.rounds}: ${b.key}`);
        rounds[b.key] ??= { trpc: [] };
        rounds[b.key].trpc.push(
          await once('trpc', {
            url: servers.app.base + trpcUrl(b.procs),
            headers: { cookie: cookies.app[b.role] },
            connections: o.connections,
          }),
        );
      }
    }
    const agg = (runs, field = 'okPerSec') => ({
      reqPerSec: median(runs.map((r) => r[field])),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      perRound: runs.map((r) => Math.round(r[field])),
      serverCpuPct: median(runs.map((r) => r.cpu?.processCpuPct)),
      postgresCpuPct: median(runs.map((r) => r.cpu?.postgresCpuPct)),
      statuses: runs.at(-1).statuses,
      errors: runs.reduce((a, r) => a + r.errors + r.timeouts, 0),
      loadAvg: runs.map((r) => r.loadAvg),
    });
    for (const x of POLLS) {
      const row = { label: x.label, app: x.app, peer: x.peer, checks: checks[x.key] };
      for (const [who, runs] of Object.entries(rounds[x.key]))
        row[who] = agg(runs, who === 'app304' ? 'notModifiedPerSec' : 'okPerSec');
      if (x.trpc) row.trpcPath = trpcUrl(x.trpc);
      out.polls[x.key] = row;
    }
    for (const b of BATCHES) {
      const row = { label: b.label, path: trpcUrl(b.procs), of: b.of, trpc: agg(rounds[b.key].trpc) };
      const [a, c] = b.of.map((k) => out.polls[k]?.app?.reqPerSec);
      row.expected = a && c ? 1 / (1 / a + 1 / c) : null;
      out.batches[b.key] = row;
    }

    // Signup last (it grows both datasets), alternating the same way.
    ctx.log('peers: signup');
    const signupRuns = { b0: [], b1: [], app: [] };
    for (let k = 0; k < o.rounds; k++) {
      // Forward in odd rounds, backward in even ones, as the polls: the app ran last in every round
      // before, always right after B1's signups had grown the WAL.
      for (const who of k % 2 === 0 ? ['b0', 'b1', 'app'] : ['app', 'b1', 'b0']) {
        signupRuns[who].push(
          await once(who, {
            ...signupLoad(who === 'app' ? 'app' : 'peer', servers[who].base),
            connections: o.connections,
          }),
        );
      }
    }
    out.signup = Object.fromEntries(Object.entries(signupRuns).map(([who, runs]) => [who, agg(runs)]));

    // What limits each missed target: wait events, a CPU profile, and the plans of its statements.
    for (const s of Object.values(servers)) await s.stop();
    for (const k of Object.keys(servers)) delete servers[k];
    out.diagnoses = {};
    const targets = peersTargets(out);
    const done = new Set();
    for (const t of targets.filter((t) => t.ok === false && t.case)) {
      if (done.has(t.case)) continue;
      done.add(t.case);
      ctx.log(`peers: diagnosing ${t.case}`);
      const x = POLLS.find((p) => p.key === t.case.split(':')[0]);
      const b = BATCHES.find((p) => p.key === t.case);
      let load;
      if (t.case === 'signup') load = (base) => ({ ...signupLoad('app', base), connections: o.connections });
      else if (b)
        load = (base, c) => ({
          url: base + trpcUrl(b.procs),
          headers: { cookie: c[b.role] },
          connections: o.connections,
        });
      else if (t.case.endsWith(':trpc'))
        load = (base, c) => ({
          url: base + trpcUrl(x.trpc),
          headers: { cookie: c[x.role] },
          connections: o.connections,
        });
      else if (t.case.endsWith(':304')) {
        // The ETag is a hash of the answer: the same data gives the same one on a fresh server.
        const etag = out.polls[x.key].checks.app.etag;
        load = (base, c) => ({
          url: base + x.app,
          headers: { cookie: c[x.role], 'if-none-match': etag },
          connections: o.connections,
        });
      } else load = (base, c) => ({ url: base + x.app, headers: { cookie: c[x.role] }, connections: o.connections });
      const d = await diagnose(ctx, fx, { name: t.case.replace(/\W/g, '-'), load, seconds: Math.max(3, o.duration) });
      if (x && statements[x.key]) d.plans = await plansOf(fx.db, statements[x.key]);
      out.diagnoses[t.case] = d;
    }
    out.finishedAt = new Date().toISOString();
    return out;
  } finally {
    for (const s of Object.values(servers)) await s.stop().catch(() => {});
    await fx.drop();
    await ctx.admin.query('drop database if exists dn_bench_peers with (force)').catch(() => {});
  }
}

const fx0 = (x) => (x == null ? 'n/a' : Math.round(x).toLocaleString('en-US'));
const x2 = (x) => (x == null ? 'n/a' : `${x.toFixed(2)}x`);

const TRPC_FAMILY = "tRPC batch GET within 10% of /api (median of the rounds' ratios)";
const ETAG_FAMILY = "304 at >= 1.5x the rate of the 200 (median of the rounds' ratios)";

/**
 * Every target of the stage, met or missed, with the measured value. `case`: what to diagnose when
 * missed. `family`, `item`, `short`: the targets one row of results.md shows together (lib/report.mjs).
 */
export function peersTargets(r) {
  const t = [];
  if (!r?.polls) return t;
  for (const x of POLLS.filter((p) => p.target)) {
    const row = r.polls[x.key];
    if (!row?.app) continue;
    const b0Row = x.floor ? r.polls[x.floor] : row;
    const vsB0 = b0Row?.b0?.reqPerSec ? row.app.reqPerSec / b0Row.b0.reqPerSec : null;
    const vsB1 = row.b1?.reqPerSec ? row.app.reqPerSec / row.b1.reqPerSec : null;
    t.push({
      target: `${x.key}: app >= 0.6x B0${x.floor ? ` (floor: B0's ${x.floor}, as B0's ${x.key} reads nothing)` : ''} at c=${r.settings.connections}`,
      ok: vsB0 == null ? null : vsB0 >= 0.6,
      value: `${fx0(row.app.reqPerSec)} vs ${fx0(b0Row?.b0?.reqPerSec)} req/s = ${x2(vsB0)}`,
      case: x.key,
      family: `app >= 0.6x B0's req/s at c=${r.settings.connections}`,
      item: x.floor ? `${x.key} (vs B0's ${x.floor})` : x.key,
      short: x2(vsB0),
    });
    t.push({
      target: `${x.key}: app >= 2x B1 at c=${r.settings.connections}`,
      ok: vsB1 == null ? null : vsB1 >= 2,
      value: `${fx0(row.app.reqPerSec)} vs ${fx0(row.b1?.reqPerSec)} req/s = ${x2(vsB1)}`,
      case: x.key,
      family: `app >= 2x B1's req/s at c=${r.settings.connections}`,
      item: x.key,
      short: x2(vsB1),
    });
    // The app's own comparisons (tRPC against /api, 304 against 200) are runs of one server made
    // side by side in each round: judged by the median of the rounds' ratios, medians shown too.
    const paired = (other, unit, appUnit = unit) => {
      const q = pairedRatio(other.perRound, row.app.perRound);
      const rounds = other.perRound.map((v, k) => x2(v / row.app.perRound[k])).join(', ');
      return {
        q,
        value: `median of the rounds' ratios ${x2(q)} (rounds ${rounds}); medians ${fx0(other.reqPerSec)} ${unit} vs ${fx0(row.app.reqPerSec)} ${appUnit} = ${x2(other.reqPerSec / row.app.reqPerSec)}`,
      };
    };
    if (row.trpc) {
      const { q, value } = paired(row.trpc, 'req/s');
      t.push({
        target: `${x.key}: tRPC batch GET within 10% of /api`,
        ok: q == null ? null : q >= 0.9,
        value,
        case: `${x.key}:trpc`,
        family: TRPC_FAMILY,
        item: x.key,
        short: x2(q),
      });
    } else if (x.key === 'auth-user') {
      t.push({
        target: `${x.key}: tRPC batch GET within 10% of /api`,
        ok: null,
        value: 'the web app asks it over REST (apps/web/src/shared/lib/auth.ts): no tRPC batch to measure',
        family: TRPC_FAMILY,
        item: x.key,
        short: 'REST only',
      });
    }
    if (row.app304) {
      const { q, value } = paired(row.app304, '304/s', '200/s');
      t.push({
        target: `${x.key}: 304 at >= 1.5x the rate of the 200`,
        ok: q == null ? null : q >= 1.5,
        value,
        case: `${x.key}:304`,
        family: ETAG_FAMILY,
        item: x.key,
        short: x2(q),
      });
    } else {
      t.push({
        target: `${x.key}: 304 at >= 1.5x the rate of the 200`,
        ok: false,
        value: 'no ETag on the 200',
        family: ETAG_FAMILY,
        item: x.key,
        short: 'no ETag',
      });
    }
  }
  for (const [key, b] of Object.entries(r.batches ?? {})) {
    const q = b.expected ? b.trpc.reqPerSec / b.expected : null;
    t.push({
      target: `${b.label} (${b.of.join(' + ')}): within 10% of the /api figures combined`,
      ok: q == null ? null : q >= 0.9,
      value: `${fx0(b.trpc.reqPerSec)} batches/s vs 1/(1/a+1/b) = ${fx0(b.expected)} = ${x2(q)}`,
      case: key,
      family: "the browser's tRPC batches within 10% of their /api calls combined",
      item: b.label,
      short: x2(q),
    });
  }
  if (r.signup?.app) {
    const q = r.signup.b1?.reqPerSec ? r.signup.app.reqPerSec / r.signup.b1.reqPerSec : null;
    t.push({
      target: 'signup (unique emails): app >= B1',
      ok: q == null ? null : q >= 1,
      value: `${fx0(r.signup.app.reqPerSec)} vs ${fx0(r.signup.b1?.reqPerSec)} req/s = ${x2(q)} (B0 ${fx0(r.signup.b0?.reqPerSec)})`,
      case: 'signup',
    });
  }
  return t;
}
