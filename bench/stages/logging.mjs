// Stage `logging`: what production logging costs on the hottest poll. The same build on the same
// database, two processes on the server core: one with LOG_LEVEL unset (the production default,
// info: one line per request, written to a file) and one with LOG_LEVEL=warn; runs alternate
// between them in ABBA order (info first in one round, warn first in the next, so a machine that
// speeds up or slows down during the stage favours neither), for at least LOGGING_ROUNDS rounds.
// The cost is the median of the rounds' paired costs, 1 - info/warn, each pair run back to back.
import { statSync } from 'node:fs';
import { appCookies, appFixture, diagnose, drain, startApp } from '../lib/app.mjs';
import { median, pairedRatio, run } from '../lib/load.mjs';
import { cpuMeter } from '../lib/proc.mjs';

/**
 * The hottest endpoint: every open dealer dashboard polls affiliate stats every 5 s (POLL_MS), the
 * most frequent poll of the most numerous users. `--logging-endpoint=PATH:ROLE` changes it.
 */
export const HOTTEST = { path: '/api/affiliate/stats', role: 'dealer' };

/**
 * Rounds of the logging stage at least: the cost measured is a few percent, and on this machine one
 * server's rounds differ by up to 2x (bench/findings.md), far more than that.
 */
export const LOGGING_ROUNDS = 6;

/** The order of the two servers in round k: ABBA, so a steady drift cancels. */
export const roundOrder = (k) => (k % 2 === 0 ? ['info', 'warn'] : ['warn', 'info']);

export async function loggingStage(ctx, shared) {
  const o = ctx.opts;
  const [path, role] = o.loggingEndpoint ? o.loggingEndpoint.split(':') : [HOTTEST.path, HOTTEST.role];
  const out = {
    startedAt: new Date().toISOString(),
    endpoint: path,
    role: role ?? null,
    settings: {
      dealers: o.peersDealers,
      connections: o.connections,
      duration: o.duration,
      warmup: o.warmup,
      rounds: Math.max(o.rounds, LOGGING_ROUNDS),
      order: 'ABBA',
    },
  };
  const fx = shared ?? (await appFixture(ctx, { dealers: o.peersDealers, tag: 'logging', referrals: 25 }));
  const servers = {};
  try {
    servers.info = await startApp(ctx, fx, { name: 'log-info' });
    servers.warn = await startApp(ctx, fx, { logLevel: 'warn', name: 'log-warn' });
    const cookies = {
      info: role ? (await appCookies(servers.info.base))[role] : null,
      warn: role ? (await appCookies(servers.warn.base))[role] : null,
    };
    const runs = { info: [], warn: [] };
    const bytes0 = statSync(servers.info.logFile).size;
    let requests = 0;
    const rounds = out.settings.rounds;
    for (let k = 0; k < rounds; k++) {
      for (const who of roundOrder(k)) {
        ctx.log(`logging round ${k + 1}/${rounds}: ${who}`);
        const s = servers[who];
        const opts = {
          url: s.base + path,
          connections: o.connections,
          headers: cookies[who] ? { cookie: cookies[who] } : {},
        };
        const warm = await run({ ...opts, duration: o.warmup });
        await drain(`${s.base}/healthz`);
        const meter = cpuMeter(s.pid);
        const r = await run({ ...opts, duration: o.duration });
        r.cpu = meter.stop();
        // The server's CPU time per answer (user + system, its write threads included): what a
        // log line costs the process, whatever else shares the machine's two cores.
        r.cpuUsPerRequest =
          r.cpu.processCpuSeconds !== null && r.total ? (r.cpu.processCpuSeconds * 1e6) / r.total : null;
        await drain(`${s.base}/healthz`);
        if (who === 'info') requests += warm.total + r.total;
        delete r.latencies;
        runs[who].push(r);
      }
    }
    const logBytes = statSync(servers.info.logFile).size - bytes0;
    const agg = (rs) => ({
      reqPerSec: median(rs.map((r) => r.okPerSec)),
      p99: median(rs.map((r) => r.p99)),
      serverCpuPct: median(rs.map((r) => r.cpu?.processCpuPct)),
      cpuUsPerRequest: median(rs.map((r) => r.cpuUsPerRequest)),
      perRound: rs.map((r) => Math.round(r.okPerSec)),
      statuses: rs.at(-1).statuses,
    });
    out.info = { logLevel: servers.info.logLevel, ...agg(runs.info) };
    out.warn = { logLevel: 'warn', ...agg(runs.warn) };
    out.costOfMedians = out.warn.reqPerSec ? 1 - out.info.reqPerSec / out.warn.reqPerSec : null;
    const rates = (who) => runs[who].map((r) => r.okPerSec);
    out.pairedCosts = rates('info').map((x, k) => 1 - x / rates('warn')[k]);
    // The median of the rounds' paired costs, 1 - info/warn of the two runs of one round.
    const q = pairedRatio(rates('info'), rates('warn'));
    out.cost = q === null ? null : 1 - q;
    // The same pairs by CPU time per answer: info/warn - 1, the share a line adds to an answer's work.
    const cpu = (who) => runs[who].map((r) => r.cpuUsPerRequest);
    out.cpuCosts = cpu('info').map((x, k) => x / cpu('warn')[k] - 1);
    const qc = pairedRatio(cpu('info'), cpu('warn'));
    out.cpuCost = qc === null ? null : qc - 1;
    out.logBytesPerRequest = requests ? logBytes / requests : null;
    for (const s of Object.values(servers)) await s.stop();
    for (const k of Object.keys(servers)) delete servers[k];
    if (out.cost !== null && out.cost >= 0.1) {
      ctx.log('logging: diagnosing (profile of the info server)');
      out.diagnosis = await diagnose(ctx, fx, {
        name: 'logging',
        load: (base, c) => ({ url: base + path, connections: o.connections, headers: role ? { cookie: c[role] } : {} }),
        seconds: Math.max(3, o.duration),
      });
    }
    out.finishedAt = new Date().toISOString();
    return out;
  } finally {
    for (const s of Object.values(servers)) await s.stop().catch(() => {});
    if (!shared) await fx.drop();
  }
}

export function loggingTargets(r) {
  if (!r?.info) return [];
  return [
    {
      target: `production logging (LOG_LEVEL unset = info) costs < 10% on ${r.endpoint} vs LOG_LEVEL=warn`,
      ok: r.cost !== null && r.cost < 0.1,
      value: r.pairedCosts
        ? `median of the rounds' paired costs ${(r.cost * 100).toFixed(1)}% (rounds: ${r.pairedCosts.map((c) => `${(c * 100).toFixed(1)}%`).join(', ')}; medians ${Math.round(r.info.reqPerSec).toLocaleString('en-US')} vs ${Math.round(r.warn.reqPerSec).toLocaleString('en-US')} req/s; ${Math.round(r.logBytesPerRequest ?? 0)} log bytes per request)${cpuNote(r)}`
        : `${Math.round(r.info.reqPerSec).toLocaleString('en-US')} vs ${Math.round(r.warn.reqPerSec).toLocaleString('en-US')} req/s: ${(r.cost * 100).toFixed(1)}% (${Math.round(r.logBytesPerRequest ?? 0)} log bytes per request)`,
    },
  ];
}

/** The same rounds by the server's CPU time per answer, where measured (from 2026-11-27's third run). */
function cpuNote(r) {
  if (r.cpuCost === null || r.cpuCost === undefined) return '';
  const us = (x) => `${Math.round(x)} µs`;
  return `; CPU per answer ${us(r.info.cpuUsPerRequest)} vs ${us(r.warn.cpuUsPerRequest)}, +${(r.cpuCost * 100).toFixed(1)}% (rounds: ${r.cpuCosts.map((c) => `${(c * 100).toFixed(1)}%`).join(', ')})`;
}
