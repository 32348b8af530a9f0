// The results.md sections of the stages peers, logging, curve, partner and admin; their targets
// join the main table.
import { adminTargets, POLL_BAR_MS } from '../stages/admin.mjs';
import { CURVE, curveTargets } from '../stages/curve.mjs';
import { loggingTargets } from '../stages/logging.mjs';
import { partnerTargets } from '../stages/partner.mjs';
import { POLLS, peersTargets } from '../stages/peers.mjs';

const f0 = (x) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : Math.round(x).toLocaleString('en-US'));
const ms = (x) =>
  x === null || x === undefined ? 'n/a' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : Math.round(x);
const us = (x) => (x === null || x === undefined ? 'n/a' : `${Math.round(x)} µs`);
const x2 = (x) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : `${x.toFixed(2)}x`);
const mb = (b) => (b === null || b === undefined ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MB`);
const pipe = (s) => String(s).replaceAll('|', '\\|');

export function stageTargets(r) {
  return [
    ...peersTargets(r.peers),
    ...loggingTargets(r.logging),
    ...curveTargets(r.curve),
    ...partnerTargets(r.partner),
    ...adminTargets(r.admin),
  ];
}

/** What limits a missed case: wait events, CPU profile, plans (as measured by lib/app.mjs diagnose). */
function diagnosisLines(name, d) {
  const L = [`#### ${name}`, ''];
  if (d.run)
    L.push(
      `Diagnostic run (a fresh server with --cpu-prof, production log level; the profile includes its start-up): ${f0(d.run.reqPerSec)} answers/s (${Object.entries(
        d.run.statuses ?? {},
      )
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}), p99 ${d.run.p99} ms.`,
      '',
    );
  const w = d.waits;
  if (w?.samples) {
    L.push(
      `Wait events of the app's database (pg_stat_activity every 50 ms, ${w.samples} samples, ${w.avgBusy.toFixed(1)} busy backends on average):`,
      '',
      '| State / wait event | Share of busy samples |',
      '|---|---|',
      ...w.top.map((x) => `| ${pipe(x.what)} | ${x.pct}% |`),
      '',
    );
    if (w.topQueries?.length)
      L.push('Top (wait, query):', '', ...w.topQueries.map((x) => `- ${x.pct}%: \`${pipe(x.what)}\``), '');
  }
  const p = d.profile;
  if (p?.byPackage)
    L.push(
      `CPU profile of the server under the same load (${f0(p.totalMs)} ms sampled; self time):`,
      '',
      '| Package | Share | | Function | Share |',
      '|---|---|---|---|---|',
      ...p.byPackage
        .slice(0, 8)
        .map(
          (x, i) =>
            `| ${pipe(x.name)} | ${x.pct}% | | ${p.byFunction[i] ? `\`${pipe(p.byFunction[i].name)}\`` : ''} | ${p.byFunction[i]?.pct ?? ''}% |`,
        ),
      '',
    );
  for (const pl of d.plans ?? []) {
    if (pl.error) continue;
    L.push('```sql', pl.sql.slice(0, 1500), '```', '', '```', pl.plan, '```', '');
  }
  return L;
}

function peersSection(r) {
  const p = r.peers;
  const L = ['## The app vs the peers (stage `peers`)', ''];
  const s = p.settings;
  L.push(
    `${p.startedAt} -> ${p.finishedAt}. B0 = shared/peers fastify-floor (bare Fastify + pg), B1 = express-classic, both from \`${p.peersSource}\` (copied to bench/.peers, their package-lock installed there), on their own database \`dn_bench_peers\` seeded by their seed.mjs with ${f0(s.dealers)} dealers. ` +
      `The app: its own database seeded by lib/seed.mjs with ${f0(s.dealers)} dealers (the bench dealer topped up to 25 referrals like the peers' demo dealer), log level ${p.appLogLevel} with stdout to a file. ` +
      `Same-SQL baseline: bench/baseline.mjs replaying the statements the app ran for the poll. All servers on core 0, the load generator on core 1. ` +
      `Each endpoint, ${s.rounds} rounds alternating B0, B1, baseline, app (/api, tRPC batch GET, 304)${s.order ? ' in that order in odd rounds and the reverse in even ones' : ''}: ${s.warmup} s warm-up then ${s.duration} s at c=${s.connections}, server drained between runs; medians of the rounds${s.order ? "; the tRPC and 304 targets by the median of the rounds' own ratios to the /api run beside them" : ''}. req/s counts 2xx (304/s for the 304 column).`,
    '',
  );
  L.push(
    '| Endpoint | B0 req/s / p99 | B1 req/s / p99 | same-SQL baseline | app /api req/s / p99 | app/B0 | app/B1 | app/baseline | tRPC batch GET | tRPC/api | 304/s | 304/200 | app CPU |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const x of POLLS) {
    const e = p.polls[x.key];
    if (!e) continue;
    const b0 = x.floor ? p.polls[x.floor]?.b0 : e.b0;
    L.push(
      `| ${e.label} | ${f0(e.b0?.reqPerSec)} / ${ms(e.b0?.p99)} | ${f0(e.b1?.reqPerSec)} / ${ms(e.b1?.p99)} | ${f0(e.base?.reqPerSec)} | ${f0(e.app?.reqPerSec)} / ${ms(e.app?.p99)} | ${x2(e.app?.reqPerSec / b0?.reqPerSec)}${x.floor ? ` (vs B0 ${x.floor})` : ''} | ${x2(e.app?.reqPerSec / e.b1?.reqPerSec)} | ${e.base ? x2(e.app.reqPerSec / e.base.reqPerSec) : 'n/a'} | ${e.trpc ? f0(e.trpc.reqPerSec) : 'REST only'} | ${e.trpc ? x2(e.trpc.reqPerSec / e.app.reqPerSec) : ''} | ${f0(e.app304?.reqPerSec)} | ${e.app304 ? x2(e.app304.reqPerSec / e.app.reqPerSec) : 'no ETag'} | ${e.app?.serverCpuPct ?? 'n/a'}% |`,
    );
  }
  for (const b of Object.values(p.batches ?? {})) {
    L.push(
      `| ${b.label}: \`${pipe(decodeURIComponent(b.path))}\` | | | | | | | | ${f0(b.trpc.reqPerSec)} batches/s (expected ${f0(b.expected)}) | ${x2(b.trpc.reqPerSec / b.expected)} | | | ${b.trpc.serverCpuPct ?? 'n/a'}% |`,
    );
  }
  if (p.signup) {
    const g = p.signup;
    L.push(
      `| POST /api/dealer-signup (unique emails) | ${f0(g.b0?.reqPerSec)} / ${ms(g.b0?.p99)} | ${f0(g.b1?.reqPerSec)} / ${ms(g.b1?.p99)} | | ${f0(g.app?.reqPerSec)} / ${ms(g.app?.p99)} | ${x2(g.app?.reqPerSec / g.b0?.reqPerSec)} | ${x2(g.app?.reqPerSec / g.b1?.reqPerSec)} | | | | | | ${g.app?.serverCpuPct ?? 'n/a'}% |`,
    );
  }
  L.push('', 'Per round (req/s):', '');
  for (const [key, e] of Object.entries(p.polls)) {
    const parts = ['b0', 'b1', 'base', 'app', 'trpc', 'app304']
      .filter((w) => e[w])
      .map((w) => `${w} ${e[w].perRound.map(f0).join(', ')}`);
    const la = e.app?.loadAvg?.length
      ? ` (1-min load average at the app's runs: ${e.app.loadAvg.map((x) => x.toFixed(1)).join(', ')})`
      : '';
    L.push(`- ${key}: ${parts.join('; ')}${la}`);
  }
  for (const [key, b] of Object.entries(p.batches ?? {})) L.push(`- ${key}: ${b.trpc.perRound.map(f0).join(', ')}`);
  if (p.signup)
    L.push(`- signup: ${['b0', 'b1', 'app'].map((w) => `${w} ${p.signup[w].perRound.map(f0).join(', ')}`).join('; ')}`);
  L.push('', 'Answers checked before timing (status, bytes):', '');
  for (const [key, c] of Object.entries(p.polls)) {
    L.push(
      `- ${key}: ${Object.entries(c.checks)
        .map(([w, v]) => `${w} ${v.status} ${f0(v.bytes)} B${v.etag ? ' (ETag)' : ''}`)
        .join(', ')}`,
    );
  }
  L.push('');
  if (p.notes?.length) L.push(...p.notes.map((n) => `- ${n}`), '');
  if (Object.keys(p.diagnoses ?? {}).length) {
    L.push('### What limits the missed peer targets', '');
    // A poll's plans are the same for its /api, tRPC and 304 cases: shown once.
    const planned = new Set();
    for (const [name, d] of Object.entries(p.diagnoses)) {
      const key = name.split(':')[0];
      L.push(...diagnosisLines(name, planned.has(key) ? { ...d, plans: undefined } : d));
      if (d.plans?.length && planned.has(key)) L.push(`Plans: as for ${key} above.`, '');
      planned.add(key);
    }
  }
  return L;
}

function loggingSection(r) {
  const g = r.logging;
  const s = g.settings;
  const L = ['## Logging cost (stage `logging`)', ''];
  L.push(
    `${g.startedAt}. \`${g.endpoint}\`${g.role ? ` (${g.role})` : ''} on ${f0(s.dealers)} dealers: the same build on the same database, two processes on core 0, one with LOG_LEVEL unset (production default: info, one line per request, to a file) and one with LOG_LEVEL=warn; ${s.rounds} rounds alternating${s.order ? ` in ${s.order} order (info first in odd rounds, warn first in even ones)` : ''}, ${s.warmup} s warm-up + ${s.duration} s at c=${s.connections}.`,
    '',
    '| Server | req/s | p99 | CPU | CPU per answer | per round |',
    '|---|---|---|---|---|---|',
    `| ${g.info.logLevel} | ${f0(g.info.reqPerSec)} | ${ms(g.info.p99)} | ${g.info.serverCpuPct}% | ${us(g.info.cpuUsPerRequest)} | ${g.info.perRound.map(f0).join(', ')} |`,
    `| warn | ${f0(g.warn.reqPerSec)} | ${ms(g.warn.p99)} | ${g.warn.serverCpuPct}% | ${us(g.warn.cpuUsPerRequest)} | ${g.warn.perRound.map(f0).join(', ')} |`,
    '',
    g.pairedCosts
      ? `Cost: ${(g.cost * 100).toFixed(1)}% of the warn server's rate, the median of the rounds' paired costs (1 - info/warn of the two runs of one round: ${g.pairedCosts.map((c) => `${(c * 100).toFixed(1)}%`).join(', ')}); from the medians above it would be ${(g.costOfMedians * 100).toFixed(1)}%. ${f0(g.logBytesPerRequest)} bytes of log per request.`
      : `Cost: ${(g.cost * 100).toFixed(1)}% of the warn server's rate; ${f0(g.logBytesPerRequest)} bytes of log per request.`,
    '',
  );
  if (g.cpuCosts) {
    L.push(
      `By CPU time per answer (the server process's user + system time over its answers, its write threads included): +${(g.cpuCost * 100).toFixed(1)}%, the median of the rounds' info/warn - 1 (${g.cpuCosts.map((c) => `${(c * 100).toFixed(1)}%`).join(', ')}).`,
      '',
    );
  }
  if (g.diagnosis) L.push(...diagnosisLines('logging', g.diagnosis));
  return L;
}

function curveSection(r) {
  const c = r.curve;
  const s = c.settings;
  const sizes = [...s.sizes].sort((a, b) => a - b);
  const L = ['## Cost curve (stage `curve`)', ''];
  L.push(
    `${c.startedAt} -> ${c.finishedAt}. A fresh database per size (links = dealers/5, audit rows = 10 x dealers, calls = dealers/2, orders = 10 x dealers, commissions = 3 x dealers; lib/seed.mjs), the app at its production log level. Per endpoint: ${s.warmup} s warm-up, then ${s.duration} s with one client (p95 = service time) and ${s.duration} s at c=${s.connections} (req/s). Export: ${s.exportRuns} downloads per size. Chart: [curve.svg](curve.svg).`,
    '',
  );
  L.push(`| Endpoint | ${sizes.map((n) => `${f0(n)}: p95 1 client / req/s c=${s.connections}`).join(' | ')} |`);
  L.push(`|---|${sizes.map(() => '---').join('|')}|`);
  for (const e of Object.values(c.endpoints)) {
    L.push(
      `| ${e.label} | ${sizes
        .map((n) => {
          const x = e.sizes[n];
          if (!x) return 'n/a';
          if (x.notBuilt) return x.notBuilt;
          if (x.error) return x.error;
          return `${ms(x.single.p95)} ms / ${f0(x.loaded.reqPerSec)}`;
        })
        .join(' | ')} |`,
    );
  }
  L.push(
    `| CSV export: rows/s, peak RSS growth | ${sizes.map((n) => (c.export[n] ? `${f0(c.export[n].rowsPerSec)} rows/s, ${mb(c.export[n].rssGrowthMaxBytes)} (${f0(c.export[n].rows)} rows)` : 'n/a')).join(' | ')} |`,
    '',
  );
  L.push(
    `Not built yet entries are one line each in bench/stages/curve.mjs (CURVE): ${
      CURVE.filter((e) => !e.path)
        .map((e) => e.key)
        .join(', ') || 'none'
    }.`,
    '',
  );
  // Where a p95 more than doubled: the plans at the largest size and the wait events of its loaded run.
  const missed = curveTargets(c).filter((t) => t.ok === false && t.case);
  if (missed.length) {
    L.push('### What limits the curve where p95 more than doubled', '');
    const big = sizes.at(-1);
    for (const t of missed) {
      const x = c.endpoints[t.case].sizes[big];
      L.push(
        ...diagnosisLines(`${c.endpoints[t.case].label} at ${f0(big)} dealers`, { waits: x.waits, plans: x.plans }),
      );
    }
  }
  return L;
}

/** One row per measured read: p95 and req/s, and what a miss needs (plans, wait events) below the table. */
function readsTable(reads, connections, targetOf) {
  const L = [
    `| Endpoint | Path | p95 1 client | p99 1 client | req/s c=${connections} | p95 c=${connections} | Bytes |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const x of Object.values(reads)) {
    if (!x.single) {
      L.push(`| ${x.label} | \`${pipe(x.path)}\` | ${x.error ?? 'n/a'} | | | | |`);
      continue;
    }
    const miss = x.single.p95 >= targetOf(x) ? ' (missed)' : '';
    L.push(
      `| ${x.label} | \`${pipe(x.path)}\` | ${ms(x.single.p95)} ms${miss} | ${ms(x.single.p99)} ms | ${f0(x.loaded.reqPerSec)} | ${ms(x.loaded.p95)} ms | ${f0(x.bytes)} |`,
    );
  }
  L.push('');
  return L;
}

/** The plans of every read (the issues ask for them in the results), with wait events where a target was missed. */
function planLines(reads, targetOf) {
  const L = [];
  for (const x of Object.values(reads)) {
    if (!x.plans?.length) continue;
    const missed = x.single && x.single.p95 >= targetOf(x);
    L.push(`#### ${x.label}`, '');
    if (missed && x.waits?.samples) {
      L.push(
        `Missed: wait events of its c=50 run (${x.waits.samples} samples, ${x.waits.avgBusy.toFixed(1)} busy backends on average): ${x.waits.top
          .slice(0, 4)
          .map((w) => `${pipe(w.what)} ${w.pct}%`)
          .join(', ')}.`,
        '',
      );
    }
    for (const pl of x.plans) {
      if (pl.error) {
        L.push(`Plan failed: ${pl.error}`, '');
        continue;
      }
      L.push(`${f0(pl.executionMs)} ms:`, '', '```sql', pl.sql.slice(0, 1500), '```', '', '```', pl.plan, '```', '');
    }
  }
  return L;
}

function partnerSection(r) {
  const p = r.partner;
  const s = p.settings;
  const d = p.seed ?? {};
  const L = ['## Partner program at scale (stage `partner`)', ''];
  L.push(
    `${p.startedAt} -> ${p.finishedAt}. One database: ${f0(d.dealers)} dealers, ${f0(d.orders)} orders, ${f0(d.commissions)} commissions (${f0(d.pending_commissions)} pending; the busiest recruiter has ${f0(d.max_commissions_per_recruiter)}, the signed-in bench dealer ${f0(d.bench_dealer_commissions)} from ${f0(d.bench_dealer_referrals)} referrals), ${f0(d.audits)} audit rows; seeded in ${ms(d.seconds)} s. ` +
      `The app at its production log level. Per endpoint: ${s.warmup} s warm-up, ${s.duration} s with one client (the p95 the 50 ms target uses), ${s.duration} s at c=${s.connections}.`,
    '',
    "### Recruiter dashboard (the dealer's polled procedures) and the admin Commissions tab",
    '',
    ...readsTable(p.reads, s.connections, () => 50),
  );
  const w = p.webhook;
  if (w) {
    L.push('### Orders webhook', '');
    if (w.error) L.push(`Not measured: ${w.error}`, '');
    else
      L.push(
        `POST /api/integrations/orders signed with the Standard Webhooks scheme (a new webhook-id and order id per request, timestamp now), alternating ${f0(w.referredDealers)} referred active dealers (each order earns a commission, an email and audit rows in its transaction) and unreferred ones; ${s.duration} s at c=${s.connections}: ` +
          `**${f0(w.ordersPerSec)} orders/s**, p50 ${ms(w.p50)} ms, p95 ${ms(w.p95)} ms, p99 ${ms(w.p99)} ms; statuses ${Object.entries(
            w.statuses ?? {},
          )
            .map(([k, v]) => `${k}: ${v}`)
            .join(
              ', ',
            )}; ${f0(w.ordersCreated)} orders and ${f0(w.commissionsCreated)} commissions created; server CPU ${w.cpu?.processCpuPct ?? 'n/a'}%. ` +
          `The same order posted 10 times at once: ${w.replay.statuses.join(', ')}, ${w.replay.orders} order stored.`,
        '',
      );
    if (w.waits?.samples)
      L.push(
        `Wait events during the webhook run (${w.waits.samples} samples, ${w.waits.avgBusy.toFixed(1)} busy backends on average): ${w.waits.top
          .slice(0, 5)
          .map((x) => `${pipe(x.what)} ${x.pct}%`)
          .join(', ')}.`,
        '',
      );
  }
  L.push('### Plans (EXPLAIN ANALYZE of the statements each request ran, on the seeded database)', '');
  L.push(...planLines(p.reads, () => 50));
  return L;
}

function adminSection(r) {
  const a = r.admin;
  const s = a.settings;
  const d = a.seed ?? {};
  const target = (x) => (x.group === 'typeahead' ? 20 : 50);
  const L = ['## Admin console at scale (stage `admin`)', ''];
  L.push(
    `${a.startedAt} -> ${a.finishedAt}. One database: ${f0(d.dealers)} dealers, ${f0(d.audits)} audit rows, ${f0(d.orders)} orders, ${f0(d.commissions)} commissions; seeded in ${ms(d.seconds)} s. ` +
      `Activity tab (target 50 ms) and public typeahead (target 20 ms; each request from its own address, as the per-IP budget sees typists): ${s.warmup} s warm-up, ${s.duration} s with one client, ${s.duration} s at c=${s.connections}.`,
    '',
    ...readsTable(a.reads, s.connections, target),
  );
  const b = a.bulk;
  if (b) {
    L.push(
      '### Bulk approval under polls',
      '',
      `${f0(a.pending.selected)} pending dealers (the seed had ${f0(a.pending.seeded)}; the others were rejected beforehand), approved through POST /api/admin/review/bulk ("all pending") and .../continue until done, as the web runs it: ` +
        `**${b.seconds.toFixed(2)} s** in ${b.requests.length} requests (${b.requests.join(', ')} ms), ${f0(b.summary.changed)} changed, ${f0(b.auditRows)} audit rows, ${b.pendingLeft} left pending; server CPU ${b.cpu?.processCpuPct ?? 'n/a'}%. ` +
        `Polls throughout (${s.pollSeconds} s; the window is the bulk run), each arriving as independent clients' do (Poisson arrivals at its rate, open loop, latency from the time it was due), idle figures from ${Math.max(10, s.duration)} s at the same rates before:`,
      '',
      `| Poll | idle p95 | during p95 | during/idle | during p99 | answers in window | target (< ${POLL_BAR_MS} ms) |`,
      '|---|---|---|---|---|---|---|',
    );
    for (const [key, x] of Object.entries(b.polls)) {
      const idle = a.idle?.[key];
      L.push(
        `| ${key} | ${ms(idle?.p95)} ms | ${ms(x.p95)} ms | ${idle?.p95 && x.p95 ? x2(x.p95 / idle.p95) : 'n/a'} | ${ms(x.p99)} ms | ${f0(x.n)} | ${x.n ? (x.p95 < POLL_BAR_MS ? 'met' : 'missed') : 'n/a'} |`,
      );
    }
    L.push('');
    if (b.waits?.samples)
      L.push(
        `Wait events during the bulk run (${b.waits.samples} samples, ${b.waits.avgBusy.toFixed(1)} busy backends on average): ${b.waits.top
          .slice(0, 5)
          .map((x) => `${pipe(x.what)} ${x.pct}%`)
          .join(', ')}.`,
        '',
      );
  }
  L.push('### Plans (EXPLAIN ANALYZE of the statements each request ran, on the seeded database)', '');
  L.push(...planLines(a.reads, target));
  return L;
}

export function stageSections(r) {
  const L = [];
  if (r.peers?.polls) L.push(...peersSection(r));
  if (r.logging?.info) L.push(...loggingSection(r));
  if (r.curve?.endpoints) L.push(...curveSection(r));
  if (r.partner?.reads) L.push(...partnerSection(r));
  if (r.admin?.reads) L.push(...adminSection(r));
  return L;
}
