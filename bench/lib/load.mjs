import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export const pct = (sorted, p) =>
  sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10
    : null;

/** The 2xx answers among a run's statuses. */
const okAnswers = (statuses) => Object.entries(statuses).reduce((a, [k, v]) => (k[0] === '2' ? a + v : a), 0);

/**
 * One autocannon run. Every response's latency is kept, so p95 is exact (autocannon's own
 * summary has p90 and p97.5 but no p95). Returns req/s, latency percentiles and status counts.
 */
export function run(opts) {
  const {
    url,
    duration,
    connections = 10,
    headers = {},
    method = 'GET',
    body,
    requests,
    overallRate,
    timeout = 10,
  } = opts;
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = {};
    const inst = autocannon(
      {
        url,
        duration,
        connections,
        method,
        headers,
        body,
        requests,
        overallRate,
        pipelining: 1,
        timeout,
      },
      (err, res) => {
        if (err) return reject(err);
        latencies.sort((a, b) => a - b);
        const ok = okAnswers(statuses);
        resolve({
          seconds: res.duration,
          // Answers per second by kind over the run (reqPerSec counts every answer).
          okPerSec: res.duration ? ok / res.duration : null,
          notModifiedPerSec: res.duration ? (statuses[304] ?? 0) / res.duration : null,
          reqPerSec: res.requests.average,
          total: res.requests.total,
          p50: pct(latencies, 50),
          p95: pct(latencies, 95),
          p99: pct(latencies, 99),
          max: latencies.at(-1) ?? null,
          errors: res.errors,
          timeouts: res.timeouts,
          non2xx: res.non2xx,
          statuses,
          bytesPerSec: res.throughput.average,
          latencies: opts.keepLatencies ? latencies : undefined,
        });
      },
    );
    inst.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

/**
 * GETs arriving at `rate` a second for `duration` seconds as many independent clients' polls do:
 * Poisson arrivals (exponential gaps), each request sent at its time whether or not earlier ones
 * have answered (open loop, on as many keep-alive sockets as that takes). Its latency is counted
 * from the time it was due, so a late send counts against the server's answer, not for it.
 *
 * autocannon's `overallRate` is not this: each connection sends its second's quota back to back
 * at the start of every second and then waits, so every poll of a second queues behind the others
 * (bench/findings.md, the 2026-11-27 third run). Same result fields as `run`'s, and `times`: the
 * end time (ms since epoch) and latency of every answer, to cut a window out of a run.
 */
export function paced({ url, headers = {}, rate, duration, timeout = 10 }) {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: true });
  const statuses = {};
  const latencies = [];
  const times = [];
  let errors = 0;
  let timeouts = 0;
  let inFlight = 0;
  const t0 = performance.now();
  const end = t0 + duration * 1000;
  const gap = () => (-Math.log(1 - Math.random()) * 1000) / rate;
  let due = t0 + gap();
  return new Promise((resolve) => {
    const finish = () => {
      if (inFlight > 0 || due < end) return;
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const total = latencies.length;
      const ok = okAnswers(statuses);
      resolve({
        seconds: duration,
        okPerSec: ok / duration,
        reqPerSec: total / duration,
        total,
        p50: pct(latencies, 50),
        p95: pct(latencies, 95),
        p99: pct(latencies, 99),
        max: latencies.at(-1) ?? null,
        errors,
        timeouts,
        statuses,
        times,
      });
    };
    const send = (at) => {
      inFlight++;
      let timedOut = false;
      let settled = false;
      // Each request counts once: answered, or failed (refused, reset mid-answer, timed out).
      const settle = (status) => {
        if (settled) return;
        settled = true;
        if (status !== null) {
          const ms = performance.now() - at;
          latencies.push(ms);
          times.push([Date.now(), ms]);
          statuses[status] = (statuses[status] ?? 0) + 1;
        } else if (timedOut) timeouts++;
        else errors++;
        inFlight--;
        finish();
      };
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname + u.search, headers, agent, timeout: timeout * 1000 },
        (res) => {
          res.resume();
          res.on('end', () => settle(res.statusCode));
          res.on('error', () => settle(null));
          res.on('close', () => settle(null));
        },
      );
      req.on('timeout', () => {
        timedOut = true;
        req.destroy();
      });
      req.on('error', () => settle(null));
      req.end();
    };
    const tick = () => {
      const now = performance.now();
      while (due <= now && due < end) {
        send(due);
        due += gap();
      }
      if (due < end) setTimeout(tick, due - performance.now());
      else finish();
    };
    setTimeout(tick, due - t0);
  });
}

const r1 = (x) => (x === null ? null : Math.round(x * 10) / 10);

export const median = (xs) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The median of the rounds' own ratios a[k] / b[k]: per-round rates of two runs made side by side.
 * One server's rounds differ by up to 2x on this machine, more than the ratios measured.
 */
export function pairedRatio(a, b) {
  const q = (a ?? []).map((x, k) => x / b?.[k]).filter(Number.isFinite);
  return q.length ? median(q) : null;
}

/** The median run by req/s, with every run's numbers kept. */
export function summarize(runs) {
  const byRps = [...runs].sort((a, b) => a.reqPerSec - b.reqPerSec);
  const mid = byRps[Math.floor(byRps.length / 2)];
  return {
    reqPerSec: median(runs.map((r) => r.reqPerSec)),
    p50: r1(median(runs.map((r) => r.p50))),
    p95: r1(median(runs.map((r) => r.p95))),
    p99: r1(median(runs.map((r) => r.p99))),
    statuses: mid.statuses,
    errors: runs.reduce((a, r) => a + r.errors + r.timeouts, 0),
    runs: runs.map((r) => ({ reqPerSec: r.reqPerSec, p50: r.p50, p95: r.p95, p99: r.p99, statuses: r.statuses })),
  };
}
