import http from 'node:http';
import { sampleRss, sleep } from './proc.mjs';

/** Downloads the CSV export once: time to first byte, rows/s and the server's peak RSS growth. */
export function downloadExport({ base, path, cookie, pid }) {
  return new Promise((resolve, reject) => {
    const rss = sampleRss(pid);
    const t0 = performance.now();
    let ttfb = null;
    let bytes = 0;
    let newlines = 0;
    const req = http.get(`${base}${path}`, { headers: { cookie } }, (res) => {
      res.on('data', (chunk) => {
        if (ttfb === null) ttfb = performance.now() - t0;
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
      });
      res.on('end', () => {
        const seconds = (performance.now() - t0) / 1000;
        const mem = rss.stop();
        const rows = Math.max(0, newlines - 1); // minus the header line
        resolve({
          status: res.statusCode,
          contentType: res.headers['content-type'],
          ttfbMs: ttfb,
          seconds,
          rows,
          bytes,
          rowsPerSec: rows / seconds,
          rssGrowthBytes: mem.growthBytes,
          rssPeakBytes: mem.peakBytes,
          rssSamples: mem.samples,
        });
      });
      res.on('error', reject);
    });
    req.on('error', (e) => {
      rss.stop();
      reject(e);
    });
  });
}

/** Busy connections of the database (anything not idle), i.e. held by a running export. */
async function busy(c, db) {
  const r = await c.query(
    `select count(*)::int total, count(*) filter (where state <> 'idle')::int busy
     from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
    [db],
  );
  return r.rows[0];
}

/**
 * Starts a download, drops the connection after the first `afterBytes`, and checks that the
 * server gave its database connection back (nothing left active or idle in transaction).
 */
export async function disconnectMidDownload({ base, path, cookie, pg, database, afterBytes = 256 * 1024 }) {
  const before = await busy(pg, database);
  let during = null;
  await new Promise((resolve, reject) => {
    let got = 0;
    const req = http.get(`${base}${path}`, { headers: { cookie } }, (res) => {
      res.on('data', async (chunk) => {
        got += chunk.length;
        if (got >= afterBytes && !req.destroyed) {
          res.pause();
          during = await busy(pg, database);
          req.destroy();
          resolve();
        }
      });
      res.on('end', resolve);
      res.on('error', () => resolve());
    });
    req.on('error', (e) => (e.code === 'ECONNRESET' ? resolve() : reject(e)));
  });
  let after = null;
  for (let i = 0; i < 20; i++) {
    await sleep(250);
    after = await busy(pg, database);
    if (after.busy <= before.busy) break;
  }
  return { before, during, after, released: after.busy <= before.busy, waitedMs: null };
}
