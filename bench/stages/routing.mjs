// Stage `routing` (issue 37, with issue 38's gate): routing a job among `--routing-installers`
// installers (default 100,000; seeded with generate_series). A fresh database; installers spread
// over the contiguous US, 2% of them within ~50 miles of Austin (a dense metro, where the jobs
// are); 90% with insurance and licence on file, 80% signed their tier's current agreement (the
// mix of decision 0951), a fifth Preferred; radius 25-100 miles, capacity 5 a week.
// - POST /api/admin/jobs at one client (each job inserted, routed by nextInstaller through
//   installer_gate_ok, offered, the homeowner's email queued): p95 (target < 20 ms), and how many
//   gate calls a routing made (pg_stat_user_functions, track_functions = all on that database);
// - POST /api/quote-requests (the homeowner's form; each from its own address and email) at
//   c=`connections` for `duration` s: requests a second, beside the signups of the main stage.
import { freePort, signIn, startApp } from '../lib/app.mjs';
import { pct, run } from '../lib/load.mjs';

export const ROUTING_MS = 20;
const AUSTIN_ZIPS = ['78701', '78702', '78703', '78704', '78705', '78721', '78723', '78745', '78751', '78757'];

async function seedInstallers(db, n) {
  const t0 = Date.now();
  await db.query('select setseed(0.37)');
  await db.query(`
    insert into dealers (id, tier, full_name, company_name, email, phone_e164, address_json, onboarding_call_ok,
      status, access_granted, approval_date, created_at, updated_at)
    select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid,
      case when g % 5 = 0 then 'Preferred' else 'Authorized' end,
      'Installer ' || g, 'Attic Co ' || g, 'installer' || g || '@bench.example.com',
      '+1555' || lpad((g % 10000000)::text, 7, '0'),
      jsonb_build_object('street', g || ' Main St', 'city', 'Austin', 'state', 'TX', 'zipCode', '78701', 'country', 'US'),
      true, 'approved', true, now() - interval '30 days', now() - interval '30 days', now() - interval '30 days'
    from generate_series(1, ${n}) g`);
  await db.query(`
    insert into service_areas (dealer_id, zip_code, state, latitude, longitude, radius_miles, weekly_capacity, paused)
    select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid, '78701', 'TX',
      case when g % 50 = 0 then 30.27 + (random() - 0.5) * 1.4 else 25 + random() * 24 end,
      case when g % 50 = 0 then -97.74 + (random() - 0.5) * 1.4 else -124 + random() * 57 end,
      25 + g % 76, 5, false
    from generate_series(1, ${n}) g`);
  await db.query(`
    insert into dealer_compliance (dealer_id, insurance_cert_url, insurer, insurance_expires_on, license_number,
      license_state, license_expires_on, updated_at)
    select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid, 'https://certs.example.com/' || g, 'Acme',
      current_date + 200 + g % 300, 'TX-' || g, 'TX', current_date + 100 + g % 300, now()
    from generate_series(1, ${n}) g where random() < 0.9`);
  await db.query(`
    insert into agreement_signatures (dealer_id, tier, version, text_sha256, signature_name, signed_at, ip_address, user_agent)
    select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid, v.tier, v.version, v.text_sha256,
      'Installer ' || g, now() - interval '20 days', '10.0.0.1', null
    from generate_series(1, ${n}) g
    join lateral (select tier, version, text_sha256 from agreement_versions
                  where tier::text = case when g % 5 = 0 then 'Preferred' else 'Authorized' end
                  order by version desc limit 1) v on true
    where random() < 0.8`);
  await db.query('analyze');
  return (Date.now() - t0) / 1000;
}

export async function routingStage(ctx) {
  const n = ctx.opts.routingInstallers ?? 100_000;
  const jobs = 300;
  const dbName = `dn_bench_${ctx.stamp}_routing`;
  const fx = { dbName, dbUrl: `${ctx.pgBase}/${dbName}` };
  await ctx.admin.query(`drop database if exists ${dbName} with (force)`);
  await ctx.admin.query(`create database ${dbName}`);
  await ctx.admin.query(`alter database ${dbName} set track_functions = 'all'`);
  const pg = (await import('pg')).default;
  const db = new pg.Client({ connectionString: fx.dbUrl });
  let server;
  try {
    const migrate = await startApp(ctx, fx, { logLevel: 'warn' });
    await migrate.stop();
    await db.connect();
    ctx.log(`routing: seeding ${n.toLocaleString('en-US')} installers`);
    const seedSeconds = await seedInstallers(db, n);
    const counts = (
      await db.query(`select
        (select count(*) from service_areas)::int as installers,
        (select count(*) from service_areas where earth_distance(ll_to_earth(latitude, longitude), ll_to_earth(30.27, -97.74)) < 100 * 1609.344)::int as near_austin,
        (select count(*) from dealers where installer_gate_ok(id, current_date))::int as passing_gate`)
    ).rows[0];
    ctx.log(`routing: seeded in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(counts)}`);

    server = await startApp(ctx, fx, { logLevel: 'warn', port: freePort() });
    const cookie = await signIn(server.base, '/api/admin/login', {
      username: 'bench-admin',
      password: 'bench-admin-password',
    });
    const gateCalls = async () =>
      Number(
        (
          await db.query(
            `select coalesce(sum(calls), 0) as n from pg_stat_user_functions where funcname = 'installer_gate_ok'`,
          )
        ).rows[0].n,
      );
    const job = (k) => ({
      homeowner: {
        fullName: `Bench Homeowner ${k}`,
        email: `home.${ctx.stamp}.${k}@bench.example.com`,
        phone: '512-555-0199',
      },
      street: `${k} Elm St`,
      city: 'Austin',
      state: 'TX',
      zipCode: AUSTIN_ZIPS[Math.abs(k) % AUSTIN_ZIPS.length],
    });
    const post = async (k) => {
      const t0 = performance.now();
      const r = await fetch(`${server.base}/api/admin/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-forwarded-for': '10.9.9.9' },
        body: JSON.stringify(job(k)),
      });
      const body = await r.json();
      if (r.status !== 200) throw new Error(`POST /api/admin/jobs answered ${r.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, status: body.status };
    };
    for (let k = 0; k < 30; k++) await post(-1 - k); // warm-up
    // An idle backend reports its function counts within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL).
    await new Promise((r) => setTimeout(r, 11_000));
    const callsBefore = await gateCalls();
    const lat = [];
    const statuses = {};
    for (let k = 0; k < jobs; k++) {
      const x = await post(k);
      lat.push(x.ms);
      statuses[x.status] = (statuses[x.status] ?? 0) + 1;
    }
    await new Promise((r) => setTimeout(r, 11_000));
    const calls = (await gateCalls()) - callsBefore;
    lat.sort((a, b) => a - b);
    const routing = {
      jobs,
      p50: pct(lat, 50),
      p95: pct(lat, 95),
      p99: pct(lat, 99),
      statuses,
      gateCallsPerJob: calls / jobs,
    };
    ctx.log(
      `routing: p95 ${routing.p95} ms, ${JSON.stringify(statuses)}, ${routing.gateCallsPerJob.toFixed(2)} gate calls a job`,
    );

    let q = 0;
    const quotes = await run({
      url: server.base,
      duration: ctx.opts.duration,
      connections: ctx.opts.connections,
      requests: [
        {
          method: 'POST',
          path: '/api/quote-requests',
          setupRequest: (req) => {
            q++;
            return {
              ...req,
              headers: {
                'content-type': 'application/json',
                'x-forwarded-for': `10.${100 + ((q >> 16) & 63)}.${(q >> 8) & 255}.${q & 255}`,
              },
              body: JSON.stringify({
                fullName: `Bench Quote ${q}`,
                email: `quote.${ctx.stamp}.${q}@bench.example.com`,
                phone: '512-555-0142',
                street: `${q} Pine Rd`,
                city: 'Austin',
                state: 'TX',
                zipCode: AUSTIN_ZIPS[q % AUSTIN_ZIPS.length],
                consent: true,
              }),
            };
          },
        },
      ],
    });
    ctx.log(`routing: quote requests ${Math.round(quotes.reqPerSec)}/s, p95 ${quotes.p95} ms`);
    return {
      startedAt: new Date().toISOString(),
      settings: { installers: n, connections: ctx.opts.connections, duration: ctx.opts.duration, seedSeconds },
      counts,
      routing,
      quotes: {
        reqPerSec: quotes.reqPerSec,
        p50: quotes.p50,
        p95: quotes.p95,
        p99: quotes.p99,
        statuses: quotes.statuses,
      },
    };
  } finally {
    await server?.stop();
    await db.end().catch(() => {});
    if (!process.env.BENCH_KEEP_DB)
      await ctx.admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
  }
}

export function routingTargets(r) {
  if (!r?.routing) return [];
  const n = r.settings.installers.toLocaleString('en-US');
  return [
    {
      target: `routing a job among ${n} installers (POST /api/admin/jobs, one client): p95 < ${ROUTING_MS} ms`,
      ok: r.routing.p95 < ROUTING_MS,
      value: `p95 ${r.routing.p95} ms (p50 ${r.routing.p50}, p99 ${r.routing.p99}) over ${r.routing.jobs} jobs near Austin among ${r.counts.near_austin.toLocaleString('en-US')} installers within 100 miles; ${r.routing.gateCallsPerJob.toFixed(2)} gate calls a job; ${JSON.stringify(r.routing.statuses)}`,
    },
  ];
}
