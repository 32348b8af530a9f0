// Turns results.json into results.md: one page a newcomer reads in five minutes (what is measured
// and against what, every target met or missed, the side-by-side table, the cost curve, how to
// re-run). Everything else a run records (every round, plan, CPU profile, wait event) stays in
// results.json; why a missed target is missed is written by hand in findings.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_LOG } from './capture.mjs';
import { f0, f1, f2, mb, minute, ms, pipe } from './format.mjs';
import { curveTable, sideBySide, stageTargets } from './report-stages.mjs';

/** The repository's formatter owns these files too, so `pnpm lint` stays clean after a run. */
export function formatWithBiome(files) {
  const bin = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin/biome');
  if (existsSync(bin)) spawnSync(bin, ['format', '--write', ...files], { stdio: 'ignore' });
}

const statusList = (s) =>
  Object.entries(s ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

/**
 * The main stage's targets. Each: `target`, `ok` (true, false, or null when not measured), `value`
 * (the measured figures); `family`, `item` and `short` when one row of the page shows several
 * targets of one kind (one per endpoint), `short` being the item's figure there.
 */
export function evaluate(r) {
  const t = [];
  const per = `main, c=${r.config?.connections}`;
  for (const [name, e] of Object.entries(r.endpoints ?? {})) {
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
      family: `polls at >= 60% of the same-SQL baseline's req/s (${per})`,
      item: name,
      short: e.ratio ? `${(e.ratio * 100).toFixed(0)}%` : 'no baseline',
    });
    t.push({
      target: `${name}: no sessions-table writes per poll`,
      ok: e.sessionsWrites === 0 && e.sessionRowsCreated === 0,
      value: `${e.sessionsWrites} writes, ${e.sessionRowsCreated} rows created over ${f0(e.app.runs.reduce((a, x) => a + x.reqPerSec, 0) * r.config.duration)} polls`,
      family: 'polls write nothing to the sessions table',
      item: name,
      short: `${e.sessionsWrites} writes, ${e.sessionRowsCreated} rows created`,
    });
    const unchanged = { family: 'unchanged data answers 304', item: name };
    if (e.conditional) {
      const s = e.conditional.statuses;
      const total = Object.values(s).reduce((a, b) => a + b, 0);
      const ok = (s[304] ?? 0) === total && total > 0;
      t.push({
        target: `${name}: unchanged data answers 304`,
        ok,
        value: `${statusList(s)}`,
        ...unchanged,
        short: ok ? 'every answer 304' : statusList(s),
      });
    } else {
      t.push({
        target: `${name}: unchanged data answers 304`,
        ok: false,
        value: 'no ETag on the 200 answer',
        ...unchanged,
        short: 'no ETag',
      });
    }
  }
  const page = r.endpoints?.['admin-dealers-page'];
  if (page?.single)
    t.push({
      target: 'admin dealers page p95 < 50 ms (one client)',
      ok: page.single.p95 < 50,
      value: `${page.single.p95} ms`,
    });
  const metrics = r.endpoints?.['admin-dealer-metrics'];
  if (metrics?.single)
    t.push({
      target: 'dealer metrics p95 < 20 ms (one client)',
      ok: metrics.single.p95 < 20,
      value: `${metrics.single.p95} ms`,
    });
  const x = r.export;
  if (x && !x.skipped) {
    const family = `the admin's CSV export (${f0(x.rows)} rows)`;
    t.push({
      target: 'export >= 50,000 rows/s',
      ok: x.rowsPerSec >= 50_000,
      value: `${f0(x.rowsPerSec)} rows/s (${f0(x.rows)} rows in ${f2(x.seconds)} s)`,
      family,
      item: '>= 50,000 rows/s:',
      short: f0(x.rowsPerSec),
    });
    t.push({
      target: 'export peak memory growth < 64 MB',
      ok: x.rssGrowthMaxBytes < 64 * 1024 * 1024,
      value: `median ${mb(x.rssGrowthBytes)}, max ${mb(x.rssGrowthMaxBytes)}`,
      family,
      item: 'peak memory growth < 64 MB:',
      short: `${mb(x.rssGrowthMaxBytes)} at most`,
    });
    t.push({
      target: 'export first byte < 300 ms',
      ok: x.ttfbMs < 300,
      value: `${f0(x.ttfbMs)} ms`,
      family,
      item: 'first byte < 300 ms:',
      short: `${f0(x.ttfbMs)} ms`,
    });
    const released = x.disconnect.released && x.disconnect.serverHealthyAfter;
    t.push({
      target: 'export releases its DB connection on client disconnect',
      ok: released,
      value: `busy connections before ${x.disconnect.before.busy}, during ${x.disconnect.during?.busy ?? 'n/a'}, after ${x.disconnect.after.busy}`,
      family,
      item: 'a client that disconnects frees its database connection:',
      short: released ? 'yes' : 'no',
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
  // Issue 48: the homeowners' light pages and the budgets of the shell and each surface, as
  // check-bundle.mjs measured them in this build (it fails CI over any of them).
  const light = (b?.checks ?? []).filter((c) => c.what.endsWith('(light page)'));
  if (light.length)
    t.push({
      target: 'the light pages (/quote, /quote/<token>, /application/<token>) hydrate with <= 30 KB JS gzip each',
      ok: light.every((c) => c.ok && c.kb <= 30),
      value: light.map((c) => `${c.what.replace(' initial JS (light page)', '')} ${f1(c.kb)} KB`).join('; '),
    });
  const surfaces = (b?.checks ?? []).filter((c) => /^(app shell|site|portal|console) /.test(c.what));
  if (surfaces.length)
    t.push({
      target: 'the app shell < 100 KB JS gzip and each surface within its budget (check-bundle.mjs)',
      ok: surfaces.every((c) => c.ok && c.kb <= c.budget) && (b.app?.gzipKB ?? Infinity) < 100,
      value: surfaces.map((c) => `${c.what} ${f1(c.kb)} of ${c.budget} KB`).join('; '),
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
  if (r.endpoints)
    t.push({
      target: 'Lighthouse (mobile) perf/a11y >= 95, CLS <= 0.02, TBT <= 100 ms',
      ok: r.lighthouse?.ok ?? null,
      value: r.lighthouse?.summary ?? r.lighthouse?.skipped ?? r.lighthouse?.error ?? 'not run (BENCH_SKIP_LIGHTHOUSE)',
    });
  // The light pages (decision 1160).
  for (const [name, page] of [
    ['quote', '/quote'],
    ['installation', '/quote/<token>'],
    ['application', '/application/<token>'],
  ]) {
    if (!r.endpoints) break;
    const x = r.lighthouseLight?.[name];
    t.push({
      target: `Lighthouse (mobile) on ${page}: perf >= 95, LCP <= 1.5 s, TBT <= 100 ms`,
      ok: x?.ok ?? null,
      value: x?.summary ?? x?.skipped ?? x?.error ?? r.lighthouseLight?.error ?? 'not run (BENCH_SKIP_LIGHTHOUSE)',
    });
  }
  return t;
}

/** Every target of the run, each with the stage that measures it. */
export function allTargets(r) {
  return [...evaluate(r).map((t) => ({ stage: 'main', ...t })), ...stageTargets(r)];
}

/** What each stage runs, for the re-run table (bench/README.md has the options). */
const STAGE_WHAT = {
  main: 'the polls against their same-SQL baseline, 304s, signup, login and a login burst, the CSV export, Lighthouse, dashboards per server',
  logging: "production logging's cost on the hottest poll (info against warn)",
  peers: 'the app against B0 and B1, the tRPC GETs and 304s, signup',
  curve: 'p95, req/s and the export at 10,000, 100,000 and 1,000,000 dealers; curve.svg',
  partner: "the orders webhook, the recruiter dashboard's polls and the admin Commissions tab at scale",
  admin: 'a bulk approval of 10,000 dealers under polls, the Activity tab and the public typeahead at scale',
  mail: 'the outbox to a local SMTP server: emails/s while 10,000 decision emails drain, and a reset link among them',
  payees: 'a NACHA file and check register of 10,000 payees, three in a row: time and memory',
  routing:
    'routing a job among 100,000 installers of 1,000,000 dealers at one client (p95, gate calls a job), quote requests/s beside signups, the offers poll beside dealer/info',
};
const ORDER = ['main', 'logging', 'peers', 'curve', 'partner', 'admin', 'mail', 'payees', 'routing'];

const mark = (ok) => (ok === true ? 'met' : ok === false ? '**missed**' : 'not measured');

/** One row per target, or per family of targets (one per endpoint), in the order measured. */
function targetRows(targets) {
  const rows = [];
  const byFamily = new Map();
  for (const t of targets) {
    const key = t.family ? `${t.stage}\u0000${t.family}` : null;
    if (key && byFamily.has(key)) byFamily.get(key).items.push(t);
    else {
      const row = { stage: t.stage, target: t.family ?? t.target, items: [t], family: Boolean(t.family) };
      rows.push(row);
      if (key) byFamily.set(key, row);
    }
  }
  return rows.map((row) => {
    const n = row.items.length;
    const met = row.items.filter((t) => t.ok === true).length;
    const missed = row.items.filter((t) => t.ok === false).length;
    const result = !row.family
      ? mark(row.items[0].ok)
      : missed
        ? `**missed** (${missed} of ${n})`
        : met === n
          ? n > 1
            ? `met (${n} of ${n})`
            : 'met'
          : `met ${met} of ${n}, ${n - met} not measured`;
    let measured;
    if (!row.family) measured = row.items[0].value;
    else if (n > 1 && row.items.every((t) => t.short === row.items[0].short && t.ok === row.items[0].ok))
      measured = `all ${n}: ${row.items[0].short}`;
    else
      measured = row.items
        .map((t) => {
          const s = `${t.item} ${t.short}`;
          return t.ok === false ? `**${s} (missed)**` : t.ok === null ? `${s} (not measured)` : s;
        })
        .join('; ');
    return `| \`${row.stage}\` | ${pipe(row.target)} | ${result} | ${pipe(measured)} |`;
  });
}

/** When the stages ran and on which commit: one line when they share one. */
function runLine(r) {
  const stages = ORDER.filter((s) => r.stages?.[s]).map((s) => ({ name: s, ...r.stages[s] }));
  if (!stages.length) return `Run ${minute(r.startedAt)} UTC.`;
  const start = stages.map((s) => s.startedAt).sort()[0];
  const end = stages
    .map((s) => new Date(Date.parse(s.startedAt) + s.seconds * 1000).toISOString())
    .sort()
    .at(-1);
  const seconds = stages.reduce((a, s) => a + s.seconds, 0);
  const commits = [...new Set(stages.map((s) => s.commit))];
  const names = stages.map((s) => `\`${s.name}\``).join(', ');
  const all = stages.length === ORDER.length ? 'every stage' : `the stage${stages.length > 1 ? 's' : ''} ${names}`;
  if (commits.length === 1 && commits[0])
    return `The run shown: ${all} of \`pnpm bench\` on commit \`${commits[0]}\`, ${minute(start)} to ${minute(end)} UTC (${f0(seconds / 60)} minutes of stages).`;
  return `The run shown: ${stages.map((s) => `\`${s.name}\` ${minute(s.startedAt)} UTC${s.commit ? ` on \`${s.commit}\`` : ''}`).join('; ')}.`;
}

function machineLine(m) {
  const mem = /Mem:\s+(\S+)/.exec(m.freeH ?? '')?.[1];
  return (
    `The machine: ${m.nproc} cores (${m.cpuModel})${mem ? `, ${mem.replace(/^([\d.]+)(\w)i$/, '$1 $2iB')} of memory` : ''}, Node ${m.node}${m.pgVersion ? `, PostgreSQL ${m.pgVersion.split(' ')[0]}` : ''}; ` +
    (m.taskset && m.nproc > 1
      ? `the servers on core 0 and the load generator on core ${m.nproc - 1} (\`taskset\`), PostgreSQL on both.`
      : 'no pinning (one core or no `taskset`).')
  );
}

function measuredAgainst(r) {
  const p = r.peers;
  const L = ['## What is measured, against what', ''];
  L.push(
    "- **The app**: the api's production bundle (and the web's production build for `main`) on a fresh PostgreSQL database per stage, seeded by `lib/seed.mjs` (100,000 dealers unless a stage says otherwise) and dropped afterwards.",
  );
  if (p) {
    L.push(
      `- **B0**, \`fastify-floor\` from \`${p.peersSource}\`: bare Fastify 5 with a \`pg\` pool, no sessions, validation, ORM or tRPC, the signed-in dealer a fixed id: an endpoint's SQL with next to nothing around it.`,
      `- **B1**, \`express-classic\` from the same folder: Express 5, express-session with connect-pg-simple, drizzle-orm, zod and argon2id, the stack the app was first built on. B0 and B1 run on their own database, seeded by their \`seed.mjs\` with ${f0(p.settings.dealers)} dealers.`,
    );
  }
  L.push(
    "- **The same-SQL baseline** (`baseline.mjs`): a bare Fastify route replaying the statements the app ran for an endpoint, as PostgreSQL logged them, without those on `sessions` and `rate_limits`: what the app's own layers cost over its SQL.",
  );
  const how = [];
  if (p)
    how.push(
      `\`peers\` runs B0, B1, the baseline and the app in turn, ${p.settings.rounds} rounds (forward, then backward), ${p.settings.warmup} s of warm-up then ${p.settings.duration} s at ${p.settings.connections} connections each, and keeps the median round`,
    );
  if (r.config)
    how.push(
      `\`main\` runs ${r.config.runs} x ${r.config.duration} s at ${r.config.connections} connections and keeps the median run`,
    );
  how.push('a latency target is the p95 of one client at a time (service time, not queueing)');
  L.push(
    `- **How**: autocannon; ${how.join('; ')}. Method: docs/decisions/0501-benchmark-method.md and 0740-bench-partner-and-admin-stages.md.`,
    '- **Reading the figures**: the machine is shared and its speed moves from hour to hour, for the peers as for the app. Ratios measured side by side in one run compare; req/s from different runs do not.',
    '',
  );
  return L;
}

function otherFigures(r) {
  const L = [];
  const c = r.capacity;
  if (c?.holdsAtP95Under100)
    L.push(
      `- **Dealer dashboards per 2-core server** (\`main\`): ${f0(c.holdsAtP95Under100)} dashboards polling (stats every 5 s, info every 10 s, conditional requests) kept p95 under 100 ms, measured; ${f0(c.dashboards)} estimated at saturation.`,
    );
  if (r.signup)
    L.push(
      `- **Signups** (\`main\`, c=${r.config.connections}): ${f0(r.signup.reqPerSec)} a second (p95 ${ms(r.signup.p95)} ms); argon2id at OWASP parameters ${f1(r.argon2?.medianMs)} ms a hash.`,
    );
  const q = r.routing?.quotes;
  if (q)
    L.push(
      `- **Quote requests** (\`routing\`, POST /api/quote-requests, c=${r.routing.settings.connections}, each routed among ${f0(r.routing.settings.installers)} installers): ${f0(q.reqPerSec)} a second (p95 ${ms(q.p95)} ms)${r.routing.signups ? `, beside ${f0(r.routing.signups.reqPerSec)} signups a second on the same server and database (p95 ${ms(r.routing.signups.p95)} ms)` : r.signup ? `, beside ${f0(r.signup.reqPerSec)} signups a second (\`main\`, c=${r.config.connections})` : ''}.`,
    );
  const w = r.partner?.webhook;
  if (w && !w.error)
    L.push(
      `- **Orders webhook** (\`partner\`, c=${r.partner.settings.connections}): ${f0(w.ordersPerSec)} signed orders a second (p95 ${ms(w.p95)} ms), each order recorded once.`,
    );
  const b = r.admin?.bulk;
  if (b)
    L.push(
      `- **Bulk approval** (\`admin\`): ${f0(b.summary.changed)} dealers in ${b.seconds.toFixed(1)} s, ${b.requests.length} requests.`,
    );
  return L.length ? ['## Other figures of this run', '', ...L, ''] : [];
}

function rerun(r) {
  const L = ['## How to re-run', ''];
  const seconds = ORDER.reduce((a, s) => a + (r.stages?.[s]?.seconds ?? 0), 0);
  L.push(
    '```sh',
    'pnpm bench                                  # every stage, then results.json, results.md and curve.svg',
    'pnpm bench -- --only=peers,curve            # some stages; the others keep their figures from results.json',
    'node bench/render.mjs                       # results.md and curve.svg again from results.json, no measurement',
    '```',
    '',
    `The stages of the run above took ${f0(seconds / 60)} minutes in all (the bundles are built before them):`,
    '',
    '| Stage | What it measures | Took |',
    '|---|---|---|',
    ...ORDER.filter((s) => r.stages?.[s]).map(
      (s) => `| \`${s}\` | ${STAGE_WHAT[s]} | ${f0(r.stages[s].seconds / 60)} min |`,
    ),
    '',
    'What the machine needs:',
    '',
    '- PostgreSQL at `postgres://postgres@127.0.0.1:5432` (`BENCH_PG`) with a role that may create and drop databases (each stage makes its own, `dn_bench_*`, and drops it), and its log readable at ' +
      `\`${PG_LOG}\` (\`BENCH_PG_LOG\`) for the same-SQL baseline and the plans; without it both are skipped.`,
    '- Two cores or more and `taskset`, and nothing else running: every figure is a rate on shared cores.',
    '- Chromium at `/usr/bin/chromium` (`CHROME_PATH`) for Lighthouse in `main`, skipped without it.',
    '- `npm` and the registry the first time: the peers are copied to `bench/.peers` and their own lock installed there.',
    '',
    'Options, short trials and the seed: bench/README.md.',
    '',
  );
  return L;
}

export function writeReport(r) {
  const targets = allTargets(r);
  const missed = targets.filter((t) => t.ok === false);
  const met = targets.filter((t) => t.ok === true).length;
  const unmeasured = targets.length - met - missed.length;
  const L = ['# Benchmark results', ''];
  L.push(
    `${runLine(r)} ${machineLine(r.machine)}`,
    '',
    'This page is written by `bench/lib/report.mjs` from [results.json](results.json), which keeps every figure of the run (each round, plan, CPU profile and wait event). ' +
      'Why the missed targets are missed, and what was measured about them: [findings.md](findings.md).',
    '',
  );
  const notes = [...(r.notes ?? []), ...(r.peers?.notes ?? []).map((n) => `\`peers\`: ${n}`)];
  if (notes.length) L.push('**Notes of the run:**', '', ...notes.map((n) => `- ${n}`), '');
  L.push(...measuredAgainst(r));
  L.push(
    `## Targets: ${met} of ${targets.length} met, ${missed.length} missed${unmeasured ? `, ${unmeasured} not measured` : ''}`,
    '',
  );
  if (missed.length) {
    L.push('Missed:', '');
    for (const t of missed) L.push(`- \`${t.stage}\` ${t.target}: ${t.value}.`);
    L.push('');
  }
  L.push('| Stage | Target | Result | Measured |', '|---|---|---|---|', ...targetRows(targets), '');
  if (r.peers?.polls) L.push(...sideBySide(r.peers));
  if (r.curve?.endpoints) L.push(...curveTable(r.curve));
  L.push(...otherFigures(r));
  L.push(...rerun(r));
  return `${L.join('\n')}\n`;
}
