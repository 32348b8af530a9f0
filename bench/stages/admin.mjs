// Stage `admin`: the admin console at scale (issues 14 and 15). One database of `--scale` dealers
// (default 100,000; 1,000,000 audit rows, orders and commissions as in the partner stage):
// - the Activity tab answering a filtered page (event type, actor, dealer, dates, the next page),
//   p95 at one client (target < 50 ms) with its plans;
// - the public dealer typeahead (the referral picker) at 100,000 dealers, each request from its own
//   address as typists' are, p95 at one client (target < 20 ms) with its plans;
// - a bulk approval of `--bulk` pending dealers (default 10,000) through the real procedure, as the
//   web runs it: POST /api/admin/review/bulk with "all pending", then .../continue until done,
//   timed to completion (target < 10 s), while dealers' and admins' polls arrive at their rates
//   as independent clients' do (`paced`: Poisson arrivals, open loop);
//   each poll's p95 during the run is compared with its p95 idle (target: under 100 ms, the bar of
//   the dashboards' capacity check, and reported as a ratio to idle).
import {
  appCookies,
  appFixture,
  captureStatements,
  drain,
  measureEndpoint,
  startApp,
  waitSampler,
} from '../lib/app.mjs';
import { paced, pct } from '../lib/load.mjs';
import { cpuMeter, sleep } from '../lib/proc.mjs';
import { DEALER_ID } from '../lib/seed.mjs';

export const ACTIVITY_MS = 50;
export const TYPEAHEAD_MS = 20;
export const BULK_SECONDS = 10;
export const POLL_BAR_MS = 100;

export function adminReads() {
  const d = new Date();
  const day = (n) => new Date(d.getTime() - n * 86_400_000).toISOString().slice(0, 10);
  return [
    {
      group: 'activity',
      key: 'activity-event',
      label: 'Activity: event type dealer.approved',
      role: 'admin',
      path: '/api/admin/activity?eventType=dealer.approved&limit=50',
    },
    {
      group: 'activity',
      key: 'activity-actor',
      label: 'Activity: actor admin1',
      role: 'admin',
      path: '/api/admin/activity?actor=admin1&limit=50',
    },
    {
      group: 'activity',
      key: 'activity-dealer',
      label: 'Activity: one dealer',
      role: 'admin',
      path: `/api/admin/activity?dealerId=${DEALER_ID(1)}&limit=50`,
    },
    {
      group: 'activity',
      key: 'activity-dates',
      label: 'Activity: one week, event type auth.signed_in',
      role: 'admin',
      path: `/api/admin/activity?eventType=auth.signed_in&from=${day(60)}&to=${day(54)}&limit=50`,
    },
    {
      group: 'activity',
      key: 'activity-next',
      label: 'Activity: event type, page 20 (cursor)',
      role: 'admin',
      path: null, // the cursor is read from the seeded trail (activityNextPath)
    },
    {
      group: 'typeahead',
      key: 'typeahead-name',
      label: 'typeahead: name prefix "smi"',
      role: null,
      path: '/api/dealers/public?q=smi',
      perIp: true,
    },
    {
      group: 'typeahead',
      key: 'typeahead-company',
      label: 'typeahead: company words "attic pr"',
      role: null,
      path: '/api/dealers/public?q=attic%20pr',
      perIp: true,
    },
    {
      group: 'typeahead',
      // Issue 35: the typeahead answers from 3 characters (2 were "jo": now a 400).
      key: 'typeahead-three',
      label: 'typeahead: three letters "joh"',
      role: null,
      path: '/api/dealers/public?q=joh',
      perIp: true,
    },
  ];
}

/** The polls that run during the bulk approval, each at its rate (the dashboards and consoles open). */
export const POLLS = [
  { key: 'affiliate-stats', path: '/api/affiliate/stats', role: 'dealer', rate: 40 },
  { key: 'dealer-info', path: '/api/dealer/info', role: 'dealer', rate: 20 },
  { key: 'own-commissions', path: '/api/affiliate/commissions', role: 'dealer', rate: 40 },
  { key: 'admin-dealers', path: '/api/admin/dealers?status=pending&page=1&pageSize=50', role: 'admin', rate: 5 },
  { key: 'dealer-metrics', path: '/api/admin/dealer-metrics', role: 'admin', rate: 5 },
  { key: 'affiliate-tracking', path: '/api/admin/affiliate-tracking', role: 'admin', rate: 5 },
];

/** The 20th page of the event-type filter: its cursor, as the tab's "load more" sends it. */
async function activityNextPath(fx) {
  const r = await fx.db.query(
    `select id from audit_logs where event_type = 'dealer.approved' order by created_at desc, id desc offset 999 limit 1`,
  );
  const id = r.rows[0]?.id;
  return id ? `/api/admin/activity?eventType=dealer.approved&limit=50&cursor=${id}` : null;
}

export async function adminStage(ctx) {
  const o = ctx.opts;
  const out = {
    startedAt: new Date().toISOString(),
    settings: {
      dealers: o.scale,
      bulk: o.bulk,
      connections: o.connections,
      duration: o.duration,
      warmup: o.warmup,
      pollSeconds: o.pollSeconds,
    },
    reads: {},
  };
  const fx = await appFixture(ctx, { dealers: o.scale, tag: 'admin', partner: true });
  out.seed = fx.seed;
  let server;
  try {
    const reads = adminReads();
    const next = reads.find((e) => e.key === 'activity-next');
    next.path = await activityNextPath(fx);
    const live = reads.filter((e) => e.path);
    const statements =
      (await captureStatements(
        ctx,
        fx,
        live.map((e) => ({ ...e, name: e.key })),
      )) ?? {};
    out.pending = await preparePending(fx, o.bulk);
    server = await startApp(ctx, fx, { name: 'admin' });
    const cookies = await appCookies(server.base);
    for (const e of live) {
      ctx.log(`admin: ${e.key}`);
      out.reads[e.key] = {
        group: e.group,
        label: e.label,
        path: e.path,
        ...(await measureEndpoint(ctx, fx, server, cookies, e, statements)),
      };
    }
    ctx.log('admin: polls idle');
    out.idle = withoutTimes(await polls(server, cookies, Math.max(10, o.duration)));
    await drain(`${server.base}/healthz`);
    ctx.log(`admin: bulk approval of ${out.pending.selected.toLocaleString('en-US')} pending dealers under polls`);
    out.bulk = await bulkUnderPolls(ctx, fx, server, cookies);
    out.finishedAt = new Date().toISOString();
    return out;
  } finally {
    await server?.stop().catch(() => {});
    await fx.drop();
  }
}

/**
 * Exactly `n` pending dealers, the newest (a recruitment drive's applications): the seed's other
 * pending dealers are rejected beforehand (the seed has 20% pending, 20,000 at 100k dealers).
 */
async function preparePending(fx, n) {
  const before = (await fx.db.query(`select count(*)::int n from dealers where status = 'pending'`)).rows[0].n;
  if (before > n) {
    await fx.db.query(
      `update dealers set status = 'rejected', rejection_reason = 'Incomplete application'
       where status = 'pending' and id not in (select id from dealers where status = 'pending' order by created_at desc limit $1)`,
      [n],
    );
    await fx.db.query('vacuum analyze dealers');
  }
  const after = (await fx.db.query(`select count(*)::int n from dealers where status = 'pending'`)).rows[0].n;
  return { seeded: before, selected: after };
}

/** Every poll at its rate for `seconds`, arriving as independent clients' do; each answer's end time and latency kept. */
function polls(server, cookies, seconds) {
  return Promise.all(
    POLLS.map((p) =>
      paced({
        url: server.base + p.path,
        headers: { cookie: cookies[p.role] },
        rate: p.rate,
        duration: seconds,
      }).then((r) => ({ key: p.key, r })),
    ),
  ).then((rs) =>
    Object.fromEntries(
      rs.map(({ key, r }) => [
        key,
        { ...summary(r.times), statuses: r.statuses, errors: r.errors + r.timeouts, times: r.times },
      ]),
    ),
  );
}

const withoutTimes = (ps) => Object.fromEntries(Object.entries(ps).map(([k, { times, ...v }]) => [k, v]));

function summary(times, from = 0, to = Number.POSITIVE_INFINITY) {
  const l = times
    .filter(([t]) => t >= from && t <= to)
    .map(([, ms]) => ms)
    .sort((a, b) => a - b);
  return { n: l.length, p50: pct(l, 50), p95: pct(l, 95), p99: pct(l, 99), max: l.at(-1) ?? null };
}

/**
 * The bulk approval as the web runs it, started a second into the polls: the first request
 * creates the action and decides the first batch, `continue` decides the next until done.
 * The polls' answers that ended while it ran are its window.
 */
async function bulkUnderPolls(ctx, fx, server, cookies) {
  const o = ctx.opts;
  const post = async (path, body) => {
    const t0 = performance.now();
    const r = await fetch(server.base + path, {
      method: 'POST',
      headers: { cookie: cookies.admin, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${text.slice(0, 300)}`);
    return { ms: performance.now() - t0, body: JSON.parse(text) };
  };
  const audits0 = (await fx.db.query(`select count(*)::int n from audit_logs where event_type = 'dealer.approved'`))
    .rows[0].n;
  const running = polls(server, cookies, o.pollSeconds);
  await sleep(1000);
  const waits = waitSampler(fx.dbUrl, fx.dbName, 100);
  const meter = cpuMeter(server.pid);
  const started = Date.now();
  const requests = [];
  let last = await post('/api/admin/review/bulk', {
    selection: { filter: { status: 'pending' } },
    decision: { kind: 'approve' },
  });
  requests.push(Math.round(last.ms));
  while (!last.body.done) {
    last = await post(`/api/admin/review/actions/${last.body.id}/continue`);
    requests.push(Math.round(last.ms));
  }
  const finished = Date.now();
  const cpu = meter.stop();
  const w = await waits.stop();
  const during = await running;
  const approved = (await fx.db.query(`select count(*)::int n from dealers where status = 'pending'`)).rows[0].n;
  const audits1 = (await fx.db.query(`select count(*)::int n from audit_logs where event_type = 'dealer.approved'`))
    .rows[0].n;
  const pollsDuring = {};
  for (const [key, x] of Object.entries(during)) {
    pollsDuring[key] = { ...summary(x.times, started, finished), statuses: x.statuses, errors: x.errors };
  }
  return {
    seconds: (finished - started) / 1000,
    requests,
    summary: { ...last.body },
    pendingLeft: approved,
    auditRows: audits1 - audits0,
    cpu,
    waits: w,
    pollsCoverSeconds: o.pollSeconds - 1,
    polls: pollsDuring,
  };
}

export function adminTargets(r) {
  if (!r?.reads) return [];
  const t = [];
  const k = (n) => (n ?? 0).toLocaleString('en-US');
  for (const [key, x] of Object.entries(r.reads)) {
    const ms = x.group === 'typeahead' ? TYPEAHEAD_MS : ACTIVITY_MS;
    const at = x.group === 'typeahead' ? `${k(r.settings.dealers)} dealers` : `${k(r.seed?.audits)} audit rows`;
    t.push({
      target: `${x.label}: p95 (one client) < ${ms} ms at ${at}`,
      ok: x.single ? x.single.p95 < ms : null,
      value: x.single
        ? `${x.single.p95} ms (c=${r.settings.connections}: ${Math.round(x.loaded.reqPerSec).toLocaleString('en-US')} req/s, p95 ${x.loaded.p95} ms)`
        : (x.error ?? 'not measured'),
      case: key,
      family: `${x.group === 'typeahead' ? 'public typeahead' : 'Activity tab'}: p95 (one client) < ${ms} ms at ${at}`,
      item: x.label.replace(/^(Activity|typeahead): /, ''),
      short: x.single ? `${x.single.p95} ms` : 'not measured',
    });
  }
  const b = r.bulk;
  if (b) {
    const full = r.pending.selected >= r.settings.bulk;
    t.push({
      target: `bulk approval of ${k(r.settings.bulk)} pending dealers completes in < ${BULK_SECONDS} s`,
      ok: full ? b.seconds < BULK_SECONDS && b.pendingLeft === 0 : null,
      value: `${b.seconds.toFixed(1)} s for ${k(b.summary.changed)} approved in ${b.requests.length} requests (${k(b.auditRows)} audit rows, ${b.pendingLeft} left pending)${full ? '' : `; only ${k(r.pending.selected)} pending at this size`}`,
    });
    for (const [key, x] of Object.entries(b.polls)) {
      const idle = r.idle?.[key];
      t.push({
        target: `poll ${key} during the bulk approval: p95 < ${POLL_BAR_MS} ms`,
        ok: x.n ? x.p95 < POLL_BAR_MS : null,
        value: x.n
          ? `${x.p95} ms (${x.n} answers) vs ${idle?.p95 ?? 'n/a'} ms idle${idle?.p95 ? ` (${(x.p95 / idle.p95).toFixed(2)}x)` : ''}`
          : 'no answer in the window',
        family: `polls during the bulk approval: p95 < ${POLL_BAR_MS} ms (idle p95 beside it)`,
        item: key,
        short: x.n ? `${x.p95} ms (idle ${idle?.p95 ?? 'n/a'})` : 'no answer in the window',
      });
    }
  }
  return t;
}
