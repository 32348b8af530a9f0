import autocannon from 'autocannon';

export const pct = (sorted, p) =>
  sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10
    : null;

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
    // keepTimes: [end time (ms since epoch), latency] of every answer, to cut a window out of a run.
    const times = opts.keepTimes ? [] : null;
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
        const ok = Object.entries(statuses).reduce((a, [k, v]) => (k[0] === '2' ? a + v : a), 0);
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
          times: times ?? undefined,
        });
      },
    );
    inst.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      times?.push([Date.now(), responseTime]);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
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
