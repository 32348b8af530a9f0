// Stage `curve`: how the app's cost grows with the data. For each size (`--sizes`, default 10,000,
// 100,000 and 1,000,000 dealers; links, audit rows, calls, orders and commissions scale with it:
// 100k dealers have 1,000,000 orders, 300,000 commissions and 1,000,000 audit rows) a fresh database is
// seeded, and each endpoint below is measured: p95 with one client (service time) and req/s at
// c=`connections`, with the plans of its statements and the wait events of its loaded run; then
// the CSV export's rows/s and peak memory. Writes curve.svg beside the results.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appCookies,
  appFixture,
  captureStatements,
  drain,
  getLoad,
  plansOf,
  startApp,
  waitSampler,
} from '../lib/app.mjs';
import { downloadExport } from '../lib/export.mjs';
import { median, run } from '../lib/load.mjs';
import { cpuMeter } from '../lib/proc.mjs';
import { svgDoc } from '../lib/svg.mjs';

/**
 * The curve's endpoints, one line each. `path: null` = not built yet (reported as such); a path that
 * answers 404 is reported the same way. `probe: 'q'`: measured only once the endpoint filters by `q`.
 */
export const CURVE = [
  {
    key: 'admin-page',
    label: 'admin page (search + filter + sort)',
    role: 'admin',
    path: '/api/admin/dealers?q=smith&status=approved&sort=fullName&dir=asc&page=1&pageSize=50',
  },
  { key: 'dealer-metrics', label: 'dealer metrics', role: 'admin', path: '/api/admin/dealer-metrics' },
  // Each request from its own address: the typeahead's per-IP budget (120 a minute) counts typists.
  {
    key: 'typeahead',
    label: 'public dealer typeahead',
    role: null,
    path: '/api/dealers/public?q=smi',
    probe: 'q',
    perIp: true,
  },
  { key: 'affiliate-stats', label: 'affiliate stats', role: 'dealer', path: '/api/affiliate/stats' },
  { key: 'commissions', label: "recruiter's commissions", role: 'dealer', path: '/api/affiliate/commissions' },
  {
    key: 'admin-commissions',
    label: 'admin Commissions tab (status filter, one page)',
    role: 'admin',
    path: '/api/admin/commissions?status=pending&page=1&pageSize=20',
  },
  {
    key: 'activity',
    label: 'Activity tab (event filter, one page)',
    role: 'admin',
    path: '/api/admin/activity?eventType=dealer.approved&limit=50',
  },
];

const EXPORT = '/api/admin/dealers/export';

/** Whether GET path answers a `q`: a query nothing matches must give an empty list. */
async function answersQ(base, path, cookie) {
  const u = new URL(base + path);
  u.searchParams.set('q', 'zzqx-no-such-dealer');
  const r = await fetch(u, { headers: cookie ? { cookie } : {} });
  if (r.status !== 200) return `GET ${u.pathname}?q= answered ${r.status}`;
  const body = await r.json();
  const list = Array.isArray(body) ? body : (body.items ?? body.dealers ?? body.results ?? null);
  if (!Array.isArray(list)) return 'the answer is not a list';
  return list.length === 0 ? true : `ignores q (a query nothing matches returned ${list.length} dealers)`;
}

export async function curveStage(ctx) {
  const o = ctx.opts;
  const out = {
    startedAt: new Date().toISOString(),
    settings: {
      sizes: o.sizes,
      connections: o.connections,
      duration: o.duration,
      warmup: o.warmup,
      exportRuns: o.exportRuns,
    },
    endpoints: Object.fromEntries(CURVE.map((e) => [e.key, { label: e.label, path: e.path, sizes: {} }])),
    export: {},
  };
  for (const size of o.sizes) {
    const fx = await appFixture(ctx, { dealers: size, tag: `curve${size}`, partner: true });
    let server;
    try {
      const statements =
        (await captureStatements(
          ctx,
          fx,
          CURVE.filter((e) => e.path).map((e) => ({ name: e.key, path: e.path, role: e.role })),
        )) ?? {};
      server = await startApp(ctx, fx, { name: `curve${size}` });
      const cookies = await appCookies(server.base);
      for (const e of CURVE) {
        const row = out.endpoints[e.key];
        if (!e.path) {
          row.sizes[size] = { notBuilt: 'not yet built' };
          continue;
        }
        const cookie = e.role ? cookies[e.role] : undefined;
        const probe = await fetch(server.base + e.path, { headers: cookie ? { cookie } : {} });
        const bytes = (await probe.arrayBuffer()).byteLength;
        if (probe.status === 404) {
          row.sizes[size] = { notBuilt: 'not yet built (404)' };
          continue;
        }
        if (e.probe === 'q') {
          const q = await answersQ(server.base, e.path, cookie);
          if (q !== true) {
            row.sizes[size] = { notBuilt: `not yet built: ${q}` };
            continue;
          }
        }
        if (probe.status !== 200) {
          row.sizes[size] = { error: `answered ${probe.status}` };
          continue;
        }
        ctx.log(`curve ${size}: ${e.key}`);
        const opts = getLoad(server.base, e.path, { cookie, perIp: e.perIp });
        await run({ ...opts, connections: o.connections, duration: o.warmup });
        await drain(`${server.base}/healthz`);
        const one = await run({ ...opts, connections: 1, duration: o.duration });
        const waits = waitSampler(fx.dbUrl, fx.dbName, 100);
        const meter = cpuMeter(server.pid);
        const many = await run({ ...opts, connections: o.connections, duration: o.duration });
        const cpu = meter.stop();
        const w = await waits.stop();
        await drain(`${server.base}/healthz`);
        const plans = await plansOf(fx.db, statements[e.key]);
        row.sizes[size] = {
          bytes,
          single: { p50: one.p50, p95: one.p95, p99: one.p99, reqPerSec: one.okPerSec },
          loaded: {
            reqPerSec: many.okPerSec,
            p50: many.p50,
            p95: many.p95,
            p99: many.p99,
            statuses: many.statuses,
            cpu,
          },
          waits: w,
          plans,
        };
      }
      ctx.log(`curve ${size}: export`);
      const downloads = [];
      for (let i = 0; i < o.exportRuns; i++)
        downloads.push(
          await downloadExport({ base: server.base, path: EXPORT, cookie: cookies.admin, pid: server.pid }),
        );
      out.export[size] = {
        status: downloads[0].status,
        rows: median(downloads.map((d) => d.rows)),
        rowsPerSec: median(downloads.map((d) => d.rowsPerSec)),
        seconds: median(downloads.map((d) => d.seconds)),
        rssGrowthMaxBytes: Math.max(...downloads.map((d) => d.rssGrowthBytes ?? 0)),
        rssPeakMaxBytes: Math.max(...downloads.map((d) => d.rssPeakBytes ?? 0)),
        downloads,
      };
      out[`seed${size}`] = fx.seed;
    } finally {
      await server?.stop().catch(() => {});
      await fx.drop();
    }
  }
  out.finishedAt = new Date().toISOString();
  return out;
}

/** The pair the targets compare: 100k and 1M when both ran, else the two largest sizes measured. */
function pair(r) {
  const s = [...(r.settings?.sizes ?? [])].sort((a, b) => a - b);
  if (s.includes(100_000) && s.includes(1_000_000)) return [100_000, 1_000_000];
  return s.length >= 2 ? s.slice(-2) : null;
}

const mb = (b) => (b == null ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MB`);
const k = (n) => n.toLocaleString('en-US');

export function curveTargets(r) {
  if (!r?.endpoints) return [];
  const p = pair(r);
  const t = [];
  if (!p)
    return [
      { target: 'cost curve: p95 and export memory compared between two sizes', ok: null, value: 'one size measured' },
    ];
  const [a, b] = p;
  for (const [key, e] of Object.entries(r.endpoints)) {
    const x = e.sizes[a];
    const y = e.sizes[b];
    if (x?.notBuilt || y?.notBuilt || !x?.single || !y?.single) {
      t.push({
        target: `${e.label}: p95 (one client) at most doubles from ${k(a)} to ${k(b)} dealers`,
        ok: null,
        value: y?.notBuilt ?? x?.notBuilt ?? y?.error ?? 'not measured',
        case: key,
      });
      continue;
    }
    const q = y.single.p95 / x.single.p95;
    t.push({
      target: `${e.label}: p95 (one client) at most doubles from ${k(a)} to ${k(b)} dealers`,
      ok: q <= 2,
      value: `${x.single.p95} -> ${y.single.p95} ms (${q.toFixed(2)}x)`,
      case: key,
      family: `p95 (one client) at most doubles from ${k(a)} to ${k(b)} dealers`,
      item: e.label,
      short: `${q.toFixed(2)}x`,
    });
  }
  const xa = r.export?.[a];
  const xb = r.export?.[b];
  if (xa && xb) {
    // Flat: the largest download grows the server's memory by no more than 16 MB beyond the smaller size's.
    const d = xb.rssGrowthMaxBytes - xa.rssGrowthMaxBytes;
    t.push({
      target: `export peak memory stays flat from ${k(a)} to ${k(b)} dealers (growth within 16 MB)`,
      ok: d <= 16 * 1024 * 1024,
      value: `peak RSS growth ${mb(xa.rssGrowthMaxBytes)} -> ${mb(xb.rssGrowthMaxBytes)}; ${Math.round(xa.rowsPerSec).toLocaleString('en-US')} -> ${Math.round(xb.rowsPerSec).toLocaleString('en-US')} rows/s`,
    });
  }
  return t;
}

/** curve.svg: one panel per curve, one line per endpoint. */
export function curveSvg(r) {
  const sizes = [...(r.settings?.sizes ?? [])].sort((a, b) => a - b);
  const live = Object.values(r.endpoints).filter((e) => sizes.some((s) => e.sizes[s]?.single));
  const series = (f) =>
    live.map((e) => ({ name: e.label, points: sizes.map((s) => [s, e.sizes[s]?.single ? f(e.sizes[s]) : null]) }));
  const ex = (f) => [{ name: 'CSV export', points: sizes.map((s) => [s, r.export?.[s] ? f(r.export[s]) : null]) }];
  const notBuilt = Object.values(r.endpoints)
    .filter((e) => !live.includes(e))
    .map((e) => e.label);
  return svgDoc(
    [
      { title: 'p95 latency, one client', yLabel: 'ms', series: series((x) => x.single.p95), logY: true },
      {
        title: `throughput at c=${r.settings.connections}`,
        yLabel: 'req/s',
        series: series((x) => x.loaded.reqPerSec),
        logY: true,
      },
      { title: 'CSV export throughput', yLabel: 'rows/s', series: ex((x) => x.rowsPerSec) },
      { title: 'CSV export: peak RSS growth', yLabel: 'MB', series: ex((x) => x.rssGrowthMaxBytes / 1024 / 1024) },
    ],
    {
      title: `Cost curve (${r.startedAt.slice(0, 10)})${notBuilt.length ? `; not yet built: ${notBuilt.join(', ')}` : ''}`,
    },
  );
}

export function writeCurveSvg(r, dir) {
  if (!r?.endpoints) return null;
  const file = join(dir, 'curve.svg');
  writeFileSync(file, curveSvg(r));
  return file;
}
