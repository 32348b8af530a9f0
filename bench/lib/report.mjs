import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageSections, stageTargets } from './report-stages.mjs';

/** The repository's formatter owns these files too, so `pnpm lint` stays clean after a run. */
export function formatWithBiome(files) {
  const bin = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin/biome');
  if (existsSync(bin)) spawnSync(bin, ['format', '--write', ...files], { stdio: 'ignore' });
}

// Turns results.json into results.md: the machine, a table per area, each target met or not.
const f0 = (x) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : Math.round(x).toLocaleString('en-US'));
const f1 = (x) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(1));
const f2 = (x) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(2));
const mb = (b) => (b === null || b === undefined ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MB`);
const mark = (ok) => (ok === null || ok === undefined ? 'not measured' : ok ? '**met**' : '**NOT met**');
const cpuPct = (c) => (c?.processCpuPct === null || c?.processCpuPct === undefined ? 'n/a' : `${c.processCpuPct}%`);
const cores = (c) =>
  c?.coresBusyPct
    ? `${Object.entries(c.coresBusyPct)
        .map(([k, v]) => `${k.replace('cpu', '')}: ${v}%`)
        .join(', ')}; PG ${c.postgresCpuPct}%, loadgen ${c.loadGeneratorCpuPct}%`
    : 'n/a';
const statusList = (s) =>
  Object.entries(s ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

export function evaluate(r) {
  const t = [];
  const eps = Object.entries(r.endpoints ?? {});
  for (const [name, e] of eps) {
    if (e.skipped) {
      t.push({ target: `${name}: polled endpoint measured`, ok: null, value: `skipped: ${e.skipped}` });
      continue;
    }
    t.push({
      target: `${name}: >= 60% of baseline req/s`,
      ok: e.ratio === undefined || e.ratio === null ? null : e.ratio >= 0.6,
      value: e.ratio
        ? `${f0(e.app.reqPerSec)} vs ${f0(e.baseline.reqPerSec)} req/s = ${(e.ratio * 100).toFixed(0)}%`
        : 'no baseline',
    });
    t.push({
      target: `${name}: no sessions-table writes per poll`,
      ok: e.sessionsWrites === 0 && e.sessionRowsCreated === 0,
      value: `${e.sessionsWrites} writes, ${e.sessionRowsCreated} rows created over ${f0(e.app.runs.reduce((a, x) => a + x.reqPerSec, 0) * r.config.duration)} polls`,
    });
    if (e.conditional) {
      const s = e.conditional.statuses;
      const total = Object.values(s).reduce((a, b) => a + b, 0);
      t.push({
        target: `${name}: unchanged data answers 304`,
        ok: (s[304] ?? 0) === total && total > 0,
        value: `${statusList(s)}`,
      });
    } else {
      t.push({ target: `${name}: unchanged data answers 304`, ok: false, value: 'no ETag on the 200 answer' });
    }
  }
  const page = r.endpoints['admin-dealers-page'];
  if (page?.single)
    t.push({
      target: 'admin dealers page p95 < 50 ms (one client)',
      ok: page.single.p95 < 50,
      value: `${page.single.p95} ms`,
    });
  const metrics = r.endpoints['admin-dealer-metrics'];
  if (metrics?.single)
    t.push({
      target: 'dealer metrics p95 < 20 ms (one client)',
      ok: metrics.single.p95 < 20,
      value: `${metrics.single.p95} ms`,
    });
  const x = r.export;
  if (x && !x.skipped) {
    t.push({
      target: 'export >= 50,000 rows/s',
      ok: x.rowsPerSec >= 50_000,
      value: `${f0(x.rowsPerSec)} rows/s (${f0(x.rows)} rows in ${f2(x.seconds)} s)`,
    });
    t.push({
      target: 'export peak memory growth < 64 MB',
      ok: x.rssGrowthMaxBytes < 64 * 1024 * 1024,
      value: `median ${mb(x.rssGrowthBytes)}, max ${mb(x.rssGrowthMaxBytes)}`,
    });
    t.push({ target: 'export first byte < 300 ms', ok: x.ttfbMs < 300, value: `${f0(x.ttfbMs)} ms` });
    t.push({
      target: 'export releases its DB connection on client disconnect',
      ok: x.disconnect.released && x.disconnect.serverHealthyAfter,
      value: `busy connections before ${x.disconnect.before.busy}, during ${x.disconnect.during?.busy ?? 'n/a'}, after ${x.disconnect.after.busy}`,
    });
  } else if (x?.skipped) {
    t.push({ target: 'export measured', ok: null, value: x.skipped });
  }
  if (r.argon2)
    t.push({
      target: 'argon2id (OWASP) < 100 ms per hash',
      ok: r.argon2.medianMs < 100,
      value: `${f1(r.argon2.medianMs)} ms`,
    });
  if (r.loginBurst) {
    t.push({
      target: 'login burst keeps polled p95 <= 1.5x quiet',
      ok: r.loginBurst.ratio !== null && r.loginBurst.ratio <= 1.5,
      value: `${r.loginBurst.quiet.p95} ms quiet -> ${r.loginBurst.underBurst.p95} ms (${f2(r.loginBurst.ratio)}x)`,
    });
  }
  const b = r.bundle;
  if (b && !b.error)
    t.push({
      target: 'landing initial JS <= 120 KB gzip (and check-bundle.mjs budgets)',
      ok: b.ok && b.gzipKB <= 120,
      value:
        `landing.html: ${f1(b.gzipKB)} KB JS (${b.files?.length ?? '?'} files), ${f1(b.cssGzipKB)} KB CSS gzip` +
        (b.app ? `; app shell for other pages: ${f1(b.app.gzipKB)} KB JS` : ''),
    });
  const a = r.assets;
  if (a && !a.error) {
    t.push({
      target: 'assets precompressed (br, gzip) with immutable caching',
      ok:
        a.br.contentEncoding === 'br' && a.gzip.contentEncoding === 'gzip' && /immutable/.test(a.br.cacheControl ?? ''),
      value: `br: ${a.br.contentEncoding}, gzip: ${a.gzip.contentEncoding}, ${a.br.cacheControl}`,
    });
  }
  t.push({
    target: 'Lighthouse (mobile) perf/a11y >= 95, CLS <= 0.02, TBT <= 100 ms',
    ok: r.lighthouse?.ok ?? null,
    value: r.lighthouse?.summary ?? r.lighthouse?.skipped ?? r.lighthouse?.error ?? 'not run (BENCH_SKIP_LIGHTHOUSE)',
  });
  return t;
}

/** `findings`: the hand-written analysis of the missed targets (bench/findings.md), appended as is. */
export function writeReport(r, findings = '') {
  const L = [];
  const m = r.machine;
  // Without the main stage's figures (a first run with --only), only the stages' sections.
  const main = Boolean(r.endpoints);
  L.push('# Benchmark results', '');
  L.push(
    `Generated by \`pnpm bench\` (bench/run.mjs) on ${r.startedAt}, ${f0(r.totalSeconds)} s in all. Raw numbers: bench/results.json.`,
    '',
  );
  if (r.stages)
    L.push(
      `Stages and when each last ran (a run with \`--only\` keeps the other stages' figures from the run before): ${Object.entries(
        r.stages,
      )
        .map(([k, v]) => `${k} ${v.startedAt} (${f0(v.seconds)} s)`)
        .join('; ')}.`,
      '',
    );
  L.push('## Machine', '');
  L.push(`- \`nproc\`: ${m.nproc}; CPU: ${m.cpuModel}; Node ${m.node}; taskset: ${m.taskset ? 'yes' : 'no'}`);
  L.push(
    `- Pinning: ${m.taskset && m.nproc > 1 ? `server (and the baseline) on core 0, load generator on core ${m.nproc - 1}; PostgreSQL unpinned (it shares both cores)` : 'none (one core or no taskset)'}`,
  );
  L.push('- `free -h`:', '', '```', m.freeH, '```', '');
  if (main)
    L.push(
      `Data: ${f0(r.seed?.dealers)} dealers, ${f0(r.seed?.links)} affiliate links, ${f0(r.seed?.audits)} audit rows, ${f0(r.seed?.calls)} call requests (seeded in ${f1(r.seed?.seconds)} s with generate_series), fresh database \`${r.database}\` dropped afterwards.`,
    );
  if (main)
    L.push(
      `Load: autocannon, ${r.config.connections} connections, ${r.config.runs} runs x ${r.config.duration} s after a ${r.config.warmup} s warm-up; the median run is reported. Latencies in ms.`,
      '',
    );
  L.push('## Targets', '', '| Target | Result | Measured |', '|---|---|---|');
  for (const t of [...(main ? evaluate(r) : []), ...stageTargets(r)])
    L.push(`| ${t.target} | ${mark(t.ok)} | ${t.value} |`);
  L.push('');
  if (!main) {
    L.push(...stageSections(r));
    if (r.notes?.length) L.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
    return `${L.join('\n')}\n`;
  }

  L.push('## Polled endpoints', '');
  L.push(
    '| Endpoint | Poll | req/s | p50 | p99 | 304 req/s | 304 p99 | Baseline req/s | Baseline p99 | Ratio | One client p95 | Server CPU | Cores busy (core: %; PostgreSQL, load generator) | Session writes/poll | Bytes |',
  );
  L.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, e] of Object.entries(r.endpoints)) {
    if (e.skipped) {
      L.push(`| ${name} | | skipped: ${e.skipped} | | | | | | | | | | | | |`);
      continue;
    }
    L.push(
      `| ${name} | ${e.pollEvery} | ${f0(e.app.reqPerSec)} | ${e.app.p50} | ${e.app.p99} | ${f0(e.conditional?.reqPerSec)} | ${e.conditional?.p99 ?? 'n/a'} | ${f0(e.baseline?.reqPerSec)} | ${e.baseline?.p99 ?? 'n/a'} | ${e.ratio ? `${(e.ratio * 100).toFixed(0)}%` : 'n/a'} | ${e.single?.p95 ?? 'n/a'} | ${cpuPct(e.cpu)} | ${cores(e.cpu)} | ${f2(e.sessionsWritesPerPoll)} | ${f0(e.responseBytes)} |`,
    );
  }
  L.push('');
  L.push(
    "Baseline: bench/baseline.mjs, a bare Fastify route per endpoint running the very statements the app ran for it (captured from PostgreSQL's log), minus those on `sessions` and `rate_limits`, with `pg`, no sessions, tRPC, validation or shaping.",
    '',
  );

  L.push('## Signup and login', '', '| Action | req/s | p50 | p95 | p99 | Statuses |', '|---|---|---|---|---|---|');
  for (const [name, s] of [
    ['POST /api/dealer-signup', r.signup],
    ['POST /api/dealer/login (valid, 4 connections)', r.login],
  ]) {
    if (s) L.push(`| ${name} | ${f0(s.reqPerSec)} | ${s.p50} | ${s.p95} | ${s.p99} | ${statusList(s.statuses)} |`);
  }
  L.push('');
  if (r.loginBurst) {
    const b = r.loginBurst;
    L.push('### Login burst at the rate-limit ceiling', '');
    L.push(
      `${b.attackers} addresses send failed sign-ins flat out (8 connections; each address is allowed ${b.limitPerIp}, and each of the ${b.attackers} account names 5 failed sign-ins per 15 minutes (loginPerAccount); beyond that 429) while \`${b.endpoint}\` is polled at a steady ${b.pollRate} req/s. Burst: ${f0(b.burst.reqPerSec)} req/s (${statusList(b.burst.statuses)}).`,
      '',
      '| Poll latency | p50 | p95 | p99 | Server CPU | Cores busy |',
      '|---|---|---|---|---|---|',
      `| quiet | ${b.quiet.p50} | ${b.quiet.p95} | ${b.quiet.p99} | ${cpuPct(b.quiet.cpu)} | ${cores(b.quiet.cpu)} |`,
      `| during the burst | ${b.underBurst.p50} | ${b.underBurst.p95} | ${b.underBurst.p99} | ${cpuPct(b.underBurst.cpu)} | ${cores(b.underBurst.cpu)} |`,
      '',
    );
  }
  if (r.argon2)
    L.push(
      `argon2id at OWASP parameters (${r.argon2.params}): median ${f1(r.argon2.medianMs)} ms per hash on one core.`,
      '',
    );

  if (r.export) {
    L.push('## CSV export', '');
    if (r.export.skipped) L.push(r.export.skipped, '');
    else {
      const x = r.export;
      L.push(
        `| Rows | Seconds | Rows/s | First byte | RSS growth (median / max) |`,
        '|---|---|---|---|---|',
        `| ${f0(x.rows)} | ${f2(x.seconds)} | ${f0(x.rowsPerSec)} | ${f0(x.ttfbMs)} ms | ${mb(x.rssGrowthBytes)} / ${mb(x.rssGrowthMaxBytes)} |`,
        '',
        `RSS sampled every 20 ms from /proc/<pid>/status (VmRSS) during each download. Disconnect after 256 KB: busy connections of the database (pg_stat_activity, state not idle) before ${x.disconnect.before.busy}, during ${x.disconnect.during?.busy ?? 'n/a'}, after ${x.disconnect.after.busy}; server ready afterwards: ${x.disconnect.serverHealthyAfter}.`,
        '',
      );
    }
  }

  if (r.capacity) {
    L.push('## Dealer dashboards per 2-core server', '');
    const c = r.capacity;
    if (c.skipped) L.push(`Not computed: ${c.skipped}.`, '');
    else
      L.push(
        `A dashboard polls affiliate stats every 5 s and dealer info every 10 s (0.3 polls/s). Measured (conditional requests): stats ${f0(c.statsReqPerSec)} req/s, info ${f0(c.infoReqPerSec)} req/s at saturation, p95 there ${c.p95AtSaturationMs} ms. One dashboard costs 0.2/${f0(c.statsReqPerSec)} + 0.1/${f0(c.infoReqPerSec)} server-seconds per second, so this server holds **about ${f0(c.dashboards)} concurrently polling dashboards at saturation** (p95 ${c.p95AtSaturationMs} ms ${c.p95AtSaturationMs < 100 ? '< 100 ms' : '>= 100 ms'}), about ${f0(c.dashboardsAt70Percent)} at 70% load to leave headroom for admins, signups and logins.`,
        '',
      );
    if (c.checks?.length) {
      L.push(
        "Check: that many dashboards simulated at their rate (conditional polls, stats 2/3 and info 1/3), with autocannon's per-second rate: each connection sends its second's share at the start of the second, in bursts, which is harsher than independent dashboards spread over the second:",
        '',
      );
      L.push(
        '| Dashboards | Share of estimate | Polls/s served | p50 | p95 | p99 | p95 < 100 ms |',
        '|---|---|---|---|---|---|---|',
      );
      for (const k of c.checks) {
        L.push(
          `| ${f0(k.dashboards)} | ${k.share * 100}% | ${f0(k.reqPerSec)} | ${k.p50} | ${k.p95} | ${k.p99} | ${k.p95 < 100 ? 'yes' : 'no'} |`,
        );
      }
      L.push(
        '',
        c.holdsAtP95Under100
          ? `**Measured: ${f0(c.holdsAtP95Under100)} dashboards polling in those bursts get p95 under 100 ms** (the largest count checked that passed).`
          : 'No checked count reached p95 under 100 ms.',
        '',
      );
    }
  }

  if (r.profiles && Object.keys(r.profiles).length) {
    L.push('## Where the time goes (CPU profiles of the server)', '');
    L.push(
      'For each case that misses a target, the server was restarted with `node --cpu-prof` and loaded for a few seconds (the profile includes the start-up). Self time of the main thread; argon2 and other libuv pool work do not appear here.',
      '',
    );
    for (const [name, p] of Object.entries(r.profiles)) {
      if (p.error) {
        L.push(`### ${name}`, '', p.error, '');
        continue;
      }
      L.push(`### ${name} (${f0(p.totalMs)} ms sampled)`, '', '| Package | Self ms | Share |', '|---|---|---|');
      for (const x of p.byPackage) L.push(`| ${x.name} | ${f0(x.ms)} | ${x.pct}% |`);
      L.push('', '| Function | Self ms | Share |', '|---|---|---|');
      for (const x of p.byFunction.slice(0, 10)) L.push(`| \`${x.name}\` | ${f0(x.ms)} | ${x.pct}% |`);
      L.push('');
    }
  }
  if (r.plans && Object.keys(r.plans).length) {
    L.push('## Query plans (EXPLAIN ANALYZE, BUFFERS) at this data size', '');
    for (const [name, plans] of Object.entries(r.plans)) {
      for (const p of plans) {
        L.push(
          `### ${name}`,
          '',
          '```sql',
          p.sql,
          '```',
          `Parameters: ${JSON.stringify(p.params)}`,
          '',
          '```',
          p.plan,
          '```',
          '',
        );
      }
    }
  }
  const lh = r.lighthouse;
  if (lh && !lh.skipped && !lh.error) {
    L.push('## Lighthouse on the landing page (mobile emulation)', '', lh.summary, '');
    if (lh.layoutShifts?.length) {
      L.push('Layout shifts:', '', '| Score | Element |', '|---|---|');
      for (const x of lh.layoutShifts)
        L.push(`| ${f2(x.score)} | \`${String(x.node).replaceAll('|', '\\|').slice(0, 120)}\` |`);
      L.push('');
    }
    if (lh.longTasks?.length) {
      L.push(
        'Long main-thread tasks (simulated mobile CPU):',
        '',
        '| Script | Start ms | Duration ms |',
        '|---|---|---|',
      );
      for (const x of lh.longTasks) L.push(`| ${x.url} | ${x.startMs} | ${x.durationMs} |`);
      L.push('');
    }
    if (lh.mainThread?.length)
      L.push(`Main-thread work: ${lh.mainThread.map((x) => `${x.group} ${x.ms} ms`).join(', ')}.`, '');
  }
  if (r.bundle && !r.bundle.error) {
    L.push('## Initial downloads (apps/web/scripts/check-bundle.mjs)', '');
    L.push(
      'The landing (`/`) is the prerendered landing.html (docs/decisions/0503-prerendered-landing.md); every other ' +
        'page starts from the app shell, index.html. What each loads before anything is clicked:',
      '',
    );
    for (const c of r.bundle.checks ?? []) L.push(`- ${c.what}: ${f1(c.kb)} KB gzip (budget ${c.budget} KB)`);
    L.push('', '| Page | File | Raw KB | Gzip KB |', '|---|---|---|---|');
    for (const p of [r.bundle, r.bundle.app].filter(Boolean)) {
      for (const fl of [...(p.files ?? []), ...(p.css ?? [])])
        L.push(`| ${p.page ?? 'landing.html'} | ${fl.file} | ${f1(fl.rawKB)} | ${f1(fl.gzipKB)} |`);
    }
    L.push('');
  }
  L.push(...stageSections(r));
  if (r.notes?.length) L.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  if (findings.trim()) L.push(findings.trim(), '');
  return `${L.join('\n')}\n`;
}
