import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@dn/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, signInAdmin } from './helpers';

/**
 * 100,000 dealers: the export streams them in bounded memory and stops reading when the client
 * goes away; the table page and the cards stay fast. PostgreSQL only: seeding and streaming
 * 100k rows through the embedded PGlite would take minutes and measure PGlite, not our code.
 */
const N = 100_000;

describe('admin at 100,000 dealers (PostgreSQL)', () => {
  let h: Harness;
  let admin: string;
  let base: string;

  beforeAll(async () => {
    h = await createHarness();
    admin = await signInAdmin(h.app, 'scale');
    await sql`
      insert into dealers (email, full_name, company_name, tier, status, phone_e164, address_json, created_at, updated_at)
      select 'dealer' || g || '@scale.test', 'Dealer ' || g, 'Company ' || (g % 997),
        (array['Affiliate', 'Authorized', 'Preferred'])[1 + g % 3],
        (array['pending', 'approved', 'rejected', 'active', 'inactive', 'suspended'])[1 + g % 6],
        '+1555' || lpad(g::text, 7, '0'),
        jsonb_build_object('street', g || ' Main St', 'city', 'Austin', 'state', 'TX', 'zipCode', '78701', 'country', 'US'),
        now() - (g || ' seconds')::interval, now()
      from generate_series(1, ${N}) g`.execute(h.db);
    await sql`vacuum analyze dealers`.execute(h.db);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** A plain request without keep-alive, so closing the app does not wait for an idle socket. */
  const download = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(`${base}/api/admin/dealers/export`, { headers: { cookie: admin }, agent: false }, resolve).on(
        'error',
        reject,
      );
    });

  it('exports every row with flat memory', async () => {
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const started = Date.now();
    const res = await download();
    expect(res.statusCode).toBe(200);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const seconds = (Date.now() - started) / 1000;
    expect(lines).toBe(N + 1); // the header and one line per dealer
    expect(bytes).toBeGreaterThan(N * 100);
    expect(peak - rssBefore).toBeLessThan(64 * 1024 * 1024);
    // Informational: the benchmark owns the throughput target.
    process.stdout.write(
      `export: ${N} rows in ${seconds.toFixed(2)} s, RSS growth ${((peak - rssBefore) / 1048576).toFixed(1)} MB\n`,
    );
  }, 120_000);

  it('stops reading and releases its connection when the client disconnects', async () => {
    const res = await download();
    await new Promise((resolve) => res.once('data', resolve));
    res.destroy();
    const queriesAfterAbort = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pg_stat_activity
            where datname = current_database() and query like '%from dealers d%order by d.created_at desc, d.id%'
              and state = 'active' and pid <> pg_backend_pid()`.execute(h.db)
        ).rows[0]!.n,
      );
    // Waits for it to happen (a loaded machine takes longer to notice the closed socket) rather
    // than for a fixed 1.5 s; the limit only catches an export that never lets go.
    const released = async () =>
      (await queriesAfterAbort()) === 0 && h.database.pool.totalCount - h.database.pool.idleCount <= 1;
    const deadline = Date.now() + 45_000;
    while (!(await released()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await queriesAfterAbort()).toBe(0);
    expect(h.database.pool.totalCount - h.database.pool.idleCount).toBeLessThanOrEqual(1);
  }, 60_000);

  it('answers the table page and the cards quickly', async () => {
    const time = async (url: string) => {
      const t = performance.now();
      const res = await h.app.inject({ url, headers: { cookie: admin } });
      expect(res.statusCode).toBe(200);
      return performance.now() - t;
    };
    // The median of 21, not the 95th percentile: a query that became a scan of the 100,000 rows is
    // slow every time, while a busy machine (other test files, other work) delays a few samples by
    // hundreds of ms (issue 46). The tail belongs to the benchmark, on a quiet machine.
    const median = async (url: string) => {
      await time(url);
      const samples = [];
      for (let i = 0; i < 21; i++) samples.push(await time(url));
      return samples.sort((a, b) => a - b)[10]!;
    };
    const page = await median('/api/admin/dealers');
    const search = await median('/api/admin/dealers?q=dealer12345&status=pending');
    const sorted = await median('/api/admin/dealers?sort=fullName&dir=asc&page=3');
    const metrics = await median('/api/admin/dealer-metrics');
    process.stdout.write(
      `median ms: page ${page.toFixed(1)}, search ${search.toFixed(1)}, sorted ${sorted.toFixed(1)}, metrics ${metrics.toFixed(1)}\n`,
    );
    // Generous bounds for a shared 2-core test machine; the benchmark checks the real targets.
    expect(page).toBeLessThan(250);
    expect(metrics).toBeLessThan(150);
    const body = (await h.app.inject({ url: '/api/admin/dealers?q=dealer12345', headers: { cookie: admin } })).json();
    expect(body.total).toBe(1);
  }, 60_000);
});
