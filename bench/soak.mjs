// pnpm soak (issue 40; not in CI): two app instances on one throwaway PostgreSQL database behind a
// small round-robin proxy, a realistic mix of clients for SOAK_MINUTES (default 10), instance A
// SIGKILLed and restarted at 30% of the run (minute 3 of 10), the machine's PostgreSQL restarted at
// 60% (minute 6). Clients retry what failed. At the end: requests by status per phase, every
// acknowledged write checked against the database, no email received twice (a real SMTP receiver
// counting), each instance's RSS over time, p95 latency per minute. Installers around Austin receive
// the homeowners' quote requests as offers, poll them and accept or decline them (issue 37). Writes soak-results.{json,md}
// and soak.svg here. Everything listens on 127.0.0.1 only.
//
// SOAK_POOLER=1 (issue 46): the pooler variant. The two instances reach the database through our own
// PgBouncer in transaction mode (DATABASE_URL ...?pgbouncer=true) and start together on the empty
// database; A is SIGKILLed and restarted at 30%, and at 60% the pooler (not PostgreSQL: the machine
// is shared) is SIGKILLed and started again on its port. Writes soak-pooler-results.{json,md} and
// soak-pooler.svg, with each instance's time to serve again after the pooler came back.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pgbouncerInstalled, startPgbouncer } from './lib/pgbouncer.mjs';
import { rssOf, sleep, startNode } from './lib/proc.mjs';
import { BENCH_DEALER, seedNetwork } from './lib/seed.mjs';
import { svgDoc } from './lib/svg.mjs';
import { signWebhook } from './stages/partner.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const POOLER = process.env.SOAK_POOLER === '1';
// The pooler variant restarts the pooler instead of the machine's PostgreSQL.
const RESTART_PG = !POOLER && process.env.SOAK_PG_RESTART !== '0';
const OUT = POOLER ? 'soak-pooler' : 'soak';
const USERS = Number(process.env.SOAK_USERS ?? 8);
const PG_ADMIN = process.env.SOAK_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_MS = MINUTES * 60_000;
const KILL_AT = DURATION_MS * 0.3;
const PG_AT = DURATION_MS * 0.6;
const ADMIN = { username: 'soak-admin', password: 'soak-admin-password-1' };
const SECRET = `whsec_${Buffer.from('soak-orders-webhook-secret-0123456789').toString('base64')}`;
const METRICS_TOKEN = 'soak-metrics-token-0123456789abcdef';
const log = (m) => process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${m}\n`);

// ---------------------------------------------------------------- an SMTP receiver that counts
function startSmtp() {
  const received = [];
  const server = net.createServer((sock) => {
    let buf = '';
    let data = false;
    let lines = [];
    const say = (s) => sock.write(`${s}\r\n`);
    say('220 soak ESMTP');
    sock.on('error', () => {});
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (let i = buf.indexOf('\r\n'); i !== -1; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data) {
          if (line === '.') {
            data = false;
            const headers = lines.slice(0, lines.indexOf(''));
            const unfolded = headers
              .join('\n')
              .replace(/\n[ \t]+/g, ' ')
              .split('\n');
            const h = (n) =>
              unfolded
                .find((l) => l.toLowerCase().startsWith(`${n}:`))
                ?.slice(n.length + 1)
                .trim() ?? '';
            received.push({
              to: h('to').toLowerCase(),
              subject: h('subject'),
              messageId: h('message-id'),
              at: Date.now(),
            });
            lines = [];
            say('250 OK queued');
          } else lines.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO') sock.write('250-soak\r\n250 8BITMIME\r\n');
        else if (cmd === 'DATA') {
          data = true;
          say('354 go ahead');
        } else if (cmd === 'QUIT') {
          say('221 bye');
          sock.end();
        } else say('250 OK');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ received, port: server.address().port, close: () => server.close() }),
    ),
  );
}

// ---------------------------------------------------------------- a round-robin proxy
function startProxy(upstreams) {
  let next = 0;
  const counts = upstreams.map(() => 0);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // Like a load balancer's "next upstream on a refused connection": a request that never
      // reached an instance goes to the other; one cut mid-answer is the client's to retry.
      const attempt = (tries) => {
        const i = next++ % upstreams.length;
        const up = http.request(
          { host: '127.0.0.1', port: upstreams[i].port, method: req.method, path: req.url, headers: req.headers },
          (r) => {
            counts[i]++;
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
            r.on('error', () => res.destroy());
          },
        );
        up.on('error', (err) => {
          if (err.code === 'ECONNREFUSED' && tries < upstreams.length) return attempt(tries + 1);
          if (!res.headersSent) {
            res.writeHead(502, { 'content-type': 'text/plain' });
            res.end(`proxy: ${err.code ?? err.message}`);
          } else res.destroy();
        });
        up.end(body);
      };
      attempt(1);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: server.address().port, counts, close: () => new Promise((r) => server.close(r)) }),
    ),
  );
}

// ---------------------------------------------------------------- the app instances
function appEnv(dbUrl, port, smtpPort) {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: '5',
    // Soak instances log their start (the migration lock's wait) at info; requests at warn.
    MIGRATION_LOCK_WAIT_SECONDS: '120',
    SESSION_SECRET: 'soak-session-secret-0123456789-0123456789-abcdef',
    // Required in production with DATABASE_URL (issue 39): both instances seal with one key.
    DATA_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://127.0.0.1',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ORDERS_WEBHOOK_SECRET: SECRET,
    METRICS_TOKEN,
    UNDO_WINDOW_SECONDS: '0',
    // Every simulated client comes from 127.0.0.1 through the proxy.
    RATE_LIMIT_MULTIPLIER: '1000',
    LOG_LEVEL: 'warn',
  };
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startInstance(name, dbUrl, smtpPort, port) {
  const server = await startNode({
    name,
    script: join(root, 'apps/api/dist/server.js'),
    cwd: join(root, 'apps/api'),
    env: appEnv(dbUrl, port, smtpPort),
    readyUrl: `http://127.0.0.1:${port}/readyz`,
    logFile: join(here, `.${OUT}-${name}.log`),
  });
  return { ...server, name, port };
}

// ---------------------------------------------------------------- PostgreSQL
/** Not spawnSync: the clients and the proxy live in this process and must go on during the restart. */
function restartPostgres() {
  return new Promise((resolve) => {
    const child = spawn('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart']);
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', (err) => resolve({ status: null, stderr: err.message }));
    child.on('close', (status) => resolve({ status, stderr: stderr.trim() }));
  });
}

async function postgresAnswers() {
  const c = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** After the restart: PostgreSQL must answer again; if it does not within 60 s, start it. */
async function ensurePostgres() {
  for (let i = 0; i < 60; i++) {
    if (await postgresAnswers()) return true;
    await sleep(1000);
  }
  spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'start']);
  for (let i = 0; i < 30; i++) {
    if (await postgresAnswers()) return true;
    await sleep(1000);
  }
  return false;
}

// ---------------------------------------------------------------- the clients
const RETRYABLE = new Set([502, 503, 504]);
const records = []; // { t, ms, status, kind, attempts }
const acked = { signups: [], calls: [], orders: [], decisions: [], quotes: [], accepts: [] };
let startedAt = 0;
let proxyBase = '';

async function request(kind, path, { method = 'GET', body, headers = {}, cookie } = {}) {
  const t0 = Date.now();
  let status = 0;
  let text = '';
  let attempts = 0;
  for (; attempts < 10; attempts++) {
    if (attempts > 0) await sleep(Math.min(3000, 200 * 2 ** attempts));
    try {
      const r = await fetch(proxyBase + path, {
        method,
        headers: {
          ...(body !== undefined && !headers['content-type'] ? { 'content-type': 'application/json' } : {}),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      status = r.status;
      text = await r.text();
      if (!RETRYABLE.has(status)) break;
    } catch {
      status = 0; // a connection cut mid-answer, or a time-out
    }
  }
  records.push({ t: t0 - startedAt, ms: Date.now() - t0, status, kind, attempts: attempts + 1 });
  return { status, text, retried: attempts > 0 };
}

async function signIn(path, creds) {
  for (let i = 0; i < 20; i++) {
    const r = await fetch(proxyBase + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(creds),
    }).catch(() => null);
    if (r?.status === 200)
      return r.headers
        .getSetCookie()
        .find((c) => c.startsWith('dn.sid='))
        ?.split(';')[0];
    await sleep(500);
  }
  throw new Error(`${path}: no session`);
}

const unique = (what) => `soak.${what}.${Date.now().toString(36)}.${randomUUID().slice(0, 8)}@example.com`;
const application = (email) => ({
  tier: 'Affiliate',
  fullName: 'Soak Tester',
  companyName: 'Soak Co',
  email,
  phoneE164: `+1512${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
  addressJson: { street: `${Math.floor(Math.random() * 9999)} Soak St`, city: 'Austin', state: 'TX', zipCode: '78701' },
  onboardingCallOk: true,
  referredBy: 'none',
});
const booking = (email) => ({
  name: 'Soak Caller',
  email,
  phone: '5125550100',
  preferredDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  preferredTime: 'morning',
});

const AUSTIN_ZIPS = ['78701', '78702', '78703', '78704', '78705'];
const quote = (email) => ({
  fullName: 'Soak Homeowner',
  email,
  phone: '5125550142',
  street: `${Math.floor(Math.random() * 9999)} Pine Rd`,
  city: 'Austin',
  state: 'TX',
  zipCode: AUSTIN_ZIPS[Math.floor(Math.random() * AUSTIN_ZIPS.length)],
  consent: true,
});

/**
 * The installation network (issue 37): a dozen approved installers around Austin, each passing the
 * onboarding gate (insurance and licence on file, their tier's current agreement signed), three of
 * them able to sign in (the bench dealer's password). Returns those three's emails.
 */
async function seedInstallers(db) {
  const ids = (
    await db.query(
      `select id from dealers where tier in ('Authorized', 'Preferred') and status in ('approved', 'active')
      and email <> $1 order by id limit 12`,
      [BENCH_DEALER.email],
    )
  ).rows.map((r) => r.id);
  await db.query(
    `insert into service_areas (dealer_id, zip_code, state, latitude, longitude, radius_miles, weekly_capacity, paused)
     select id, '78701', 'TX', 30.27 + (n % 5) * 0.02, -97.74 - (n % 3) * 0.02, 60, 500, false
     from unnest($1::uuid[]) with ordinality as t(id, n)`,
    [ids],
  );
  await db.query(
    `insert into dealer_compliance (dealer_id, insurance_cert_url, insurer, insurance_expires_on, license_number,
       license_state, license_expires_on, updated_at)
     select id, 'https://certs.example.com/' || id, 'Acme', current_date + 365, 'TX-' || left(id::text, 8), 'TX',
       current_date + 365, now()
     from unnest($1::uuid[]) id`,
    [ids],
  );
  await db.query(
    `insert into agreement_signatures (dealer_id, tier, version, text_sha256, signature_name, signed_at, ip_address, user_agent)
     select d.id, v.tier, v.version, v.text_sha256, d.full_name, now(), '127.0.0.1', null
     from dealers d
     join lateral (select tier, version, text_sha256 from agreement_versions where tier = d.tier
                   order by version desc limit 1) v on true
     where d.id = any($1::uuid[])`,
    [ids],
  );
  const emails = ids.slice(0, 3).map((_, i) => `installer${i + 1}.soak@example.com`);
  await db.query(
    `update dealers d set email = t.email, access_granted = true,
       password = (select password from dealers where email = $3)
     from unnest($1::uuid[], $2::text[]) as t(id, email) where d.id = t.id`,
    [ids.slice(0, 3), emails, BENCH_DEALER.email],
  );
  return emails;
}

/** An installer's turn: their open offers, and one of them accepted or declined. */
async function answerAnOffer(cookie) {
  const r = await request('installer', '/api/dealer/job-offers', { cookie });
  const offer = r.status === 200 ? JSON.parse(r.text).items?.[0] : undefined;
  if (!offer) return;
  if (Math.random() < 0.5) {
    const a = await request('installer', `/api/dealer/job-offers/${offer.id}/accept`, {
      method: 'POST',
      cookie,
      body: {},
    });
    if (a.status === 200) acked.accepts.push(offer.jobId);
  } else {
    await request('installer', `/api/dealer/job-offers/${offer.id}/decline`, {
      method: 'POST',
      cookie,
      body: { reason: 'Booked that week' },
    });
  }
}

/** One simulated person: picks an action by weight, waits a moment, again, until the end. */
async function client(n, ctx, until) {
  const pick = (weights) => {
    const total = weights.reduce((a, [w]) => a + w, 0);
    let r = Math.random() * total;
    for (const [w, f] of weights) {
      r -= w;
      if (r < 0) return f;
    }
    return weights[0][1];
  };
  while (Date.now() < until()) {
    const action = pick([
      [20, async () => request('page', ['/', '/about', '/presentation', '/resources'][n % 4])],
      [8, async () => request('page', '/api/landing-videos')],
      [
        6,
        async () => {
          const email = unique('call');
          const r = await request('call', '/api/schedule-call', { method: 'POST', body: booking(email) });
          if (r.status === 200) acked.calls.push(email);
        },
      ],
      [
        5,
        async () => {
          const email = unique('signup');
          const r = await request('signup', '/api/dealer-signup', { method: 'POST', body: application(email) });
          // A retry of a signup that went through before its answer was lost says the email is taken.
          if (r.status === 200 || (r.retried && r.status === 409)) acked.signups.push(email);
        },
      ],
      [
        3,
        async () =>
          request('sign-in', '/api/dealer/login', {
            method: 'POST',
            body: { username: BENCH_DEALER.email, password: BENCH_DEALER.password },
          }),
      ],
      [15, async () => request('dashboard', '/api/dealer/info', { cookie: ctx.dealer })],
      [10, async () => request('dashboard', '/api/affiliate/stats', { cookie: ctx.dealer })],
      [8, async () => request('console', '/api/admin/dealers', { cookie: ctx.admin })],
      [5, async () => request('console', '/api/admin/dealer-metrics', { cookie: ctx.admin })],
      [3, async () => request('console', '/api/call-schedules', { cookie: ctx.admin })],
      [
        6,
        async () => {
          const orderId = `soak-${randomUUID()}`;
          const body = JSON.stringify({
            orderId,
            dealerId: ctx.orderDealers[Math.floor(Math.random() * ctx.orderDealers.length)],
            amount: `${100 + Math.floor(Math.random() * 900)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`,
            orderedAt: new Date().toISOString(),
            status: 'placed',
          });
          const r = await request('order', '/api/integrations/orders', {
            method: 'POST',
            body,
            headers: signWebhook(body, SECRET),
          });
          if (r.status === 200) acked.orders.push(orderId);
        },
      ],
      [
        4,
        async () => {
          const email = unique('quote');
          const r = await request('quote', '/api/quote-requests', { method: 'POST', body: quote(email) });
          if (r.status === 201) acked.quotes.push(email);
        },
      ],
      [
        6,
        async () =>
          request('installer', '/api/dealer/job-offers', { cookie: ctx.installers[n % ctx.installers.length] }),
      ],
      [3, async () => answerAnOffer(ctx.installers[n % ctx.installers.length])],
      [
        1,
        async () => {
          // A bulk decision on the signups acknowledged so far and not yet decided.
          const ids = ctx.takeUndecided();
          if (ids.length === 0) return;
          const r = await request('bulk', '/api/admin/review/bulk', {
            method: 'POST',
            cookie: ctx.admin,
            body: { selection: { ids }, decision: { kind: 'approve' } },
          });
          if (r.status === 200) acked.decisions.push(...ids);
        },
      ],
    ]);
    await action();
    await sleep(150 + Math.random() * 350);
  }
}

// ---------------------------------------------------------------- the run
async function main() {
  log(
    `${MINUTES} min, ${USERS} clients; SIGKILL of instance A at ${(KILL_AT / 60_000).toFixed(1)} min${RESTART_PG ? `, PostgreSQL restart at ${(PG_AT / 60_000).toFixed(1)} min` : POOLER ? `, through PgBouncer (transaction mode), pooler restart at ${(PG_AT / 60_000).toFixed(1)} min` : ' (PostgreSQL restart off)'}`,
  );
  if (POOLER && !pgbouncerInstalled()) throw new Error('SOAK_POOLER=1 needs pgbouncer (apt-get install pgbouncer)');
  spawnSync(process.execPath, ['build.mjs'], { cwd: join(root, 'apps/api'), stdio: 'inherit' });
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  const dbName = `dn_soak_${Date.now().toString(36)}`;
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const dbUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${dbName}`);
  const smtp = await startSmtp();
  const ports = [await freePort(), await freePort()];
  let a;
  let b;
  let proxy;
  const pgUrl = new URL(PG_ADMIN);
  const bouncer = POOLER
    ? await startPgbouncer({
        port: await freePort(),
        upstreamHost: pgUrl.hostname,
        upstreamPort: Number(pgUrl.port || 5432),
        poolSize: 10,
      })
    : null;
  // The instances' URL: through the pooler in the pooler variant; seeding and checks go direct.
  const appUrl = bouncer ? bouncer.url(dbName) : dbUrl;
  let startTogether = null;
  let poolerRecovery = null;
  const rss = { A: [], B: [] };
  const faults = [];
  try {
    if (POOLER) {
      // Both at once on the empty database: one migrates and creates the admin, the other waits.
      const t0 = Date.now();
      [a, b] = await Promise.all([
        startInstance('A', appUrl, smtp.port, ports[0]),
        startInstance('B', appUrl, smtp.port, ports[1]),
      ]);
      startTogether = { bothReadyMs: Date.now() - t0 };
    } else a = await startInstance('A', dbUrl, smtp.port, ports[0]);
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    log('seeding 2,000 dealers');
    await seedNetwork(db, { dealers: 2000, links: 400, audits: 6000, calls: 1000 });
    const installerEmails = await seedInstallers(db);
    const orderDealers = (
      await db.query(`select id from dealers where status in ('approved', 'active') limit 200`)
    ).rows.map((r) => r.id);
    await db.end();
    if (!POOLER) b = await startInstance('B', dbUrl, smtp.port, ports[1]);
    proxy = await startProxy([{ port: ports[0] }, { port: ports[1] }]);
    proxyBase = `http://127.0.0.1:${proxy.port}`;
    const decided = new Set();
    const ctx = {
      admin: await signIn('/api/admin/login', ADMIN),
      dealer: await signIn('/api/dealer/login', { username: BENCH_DEALER.email, password: BENCH_DEALER.password }),
      installers: await Promise.all(
        installerEmails.map((email) =>
          signIn('/api/dealer/login', { username: email, password: BENCH_DEALER.password }),
        ),
      ),
      orderDealers,
      takeUndecided: () => [],
    };
    // The bulk decisions approve signups: their ids are read from the database by email.
    const pendingIds = async () => {
      const emails = acked.signups.filter((e) => !decided.has(e)).slice(0, 50);
      if (emails.length === 0) return [];
      const c = new pg.Client({ connectionString: dbUrl });
      try {
        await c.connect();
        const rows = (await c.query('select id, email from dealers where email = any($1)', [emails])).rows;
        for (const r of rows) decided.add(r.email);
        return rows.map((r) => r.id);
      } catch {
        return [];
      } finally {
        await c.end().catch(() => {});
      }
    };
    let nextIds = [];
    const refill = setInterval(async () => {
      if (nextIds.length === 0) nextIds = await pendingIds();
    }, 5000);
    ctx.takeUndecided = () => {
      const ids = nextIds;
      nextIds = [];
      return ids;
    };

    startedAt = Date.now();
    const end = startedAt + DURATION_MS;
    const sampler = setInterval(() => {
      const t = Date.now() - startedAt;
      // null only marks a restart (below): a process that has just died reads as no sample.
      const ra = a?.child.exitCode === null ? rssOf(a.pid) : null;
      const rb = b?.child.exitCode === null ? rssOf(b.pid) : null;
      if (ra !== null) rss.A.push([t, ra]);
      if (rb !== null) rss.B.push([t, rb]);
    }, 5000);
    const clients = Array.from({ length: USERS }, (_, i) => client(i, ctx, () => end));

    await sleep(KILL_AT);
    log('SIGKILL instance A');
    a.child.kill('SIGKILL');
    faults.push({ at: Date.now() - startedAt, what: 'instance A killed with SIGKILL' });
    await new Promise((r) => a.child.once('exit', r));
    const restartAt = Date.now();
    a = await startInstance('A', appUrl, smtp.port, ports[0]);
    faults.push({
      at: Date.now() - startedAt,
      what: `instance A restarted (ready after ${((Date.now() - restartAt) / 1000).toFixed(1)} s)`,
    });
    rss.A.push([Date.now() - startedAt, null]);

    if (bouncer) {
      await sleep(Math.max(0, startedAt + PG_AT - Date.now()));
      log('restarting PgBouncer');
      const t0 = Date.now();
      await bouncer.kill();
      await sleep(1000);
      await bouncer.start();
      const back = Date.now();
      // Each instance serves a database read again (its /readyz pings the database through its pool).
      const servesAgain = async (port) => {
        while (Date.now() - back < 120_000) {
          const r = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(
            () => null,
          );
          if (r?.status === 200) return Date.now() - back;
          await sleep(100);
        }
        return null;
      };
      const [ra, rb] = await Promise.all([servesAgain(ports[0]), servesAgain(ports[1])]);
      poolerRecovery = { downMs: back - t0, A: ra, B: rb };
      faults.push({
        at: t0 - startedAt,
        what: `PgBouncer SIGKILLed and started again after ${((back - t0) / 1000).toFixed(1)} s; instances serving again ${ra === null ? 'NEVER' : `${(ra / 1000).toFixed(1)} s`} (A) and ${rb === null ? 'NEVER' : `${(rb / 1000).toFixed(1)} s`} (B) after its return`,
      });
    }
    if (RESTART_PG) {
      await sleep(Math.max(0, startedAt + PG_AT - Date.now()));
      log('restarting PostgreSQL');
      const t0 = Date.now();
      const r = await restartPostgres();
      const back = await ensurePostgres();
      faults.push({
        at: t0 - startedAt,
        what: `PostgreSQL restarted (pg_ctlcluster exit ${r.status}${r.stderr ? `: ${r.stderr}` : ''}; answering again after ${((Date.now() - t0) / 1000).toFixed(1)} s${back ? '' : ' -- NOT BACK'})`,
      });
    }
    await Promise.all(clients);
    clearInterval(sampler);
    clearInterval(refill);
    log('load done; waiting for the outbox to drain');

    const check = new pg.Client({ connectionString: dbUrl });
    await check.connect();
    let waiting = -1;
    for (let i = 0; i < 90; i++) {
      waiting = (await check.query(`select count(*)::int n from email_outbox where status in ('pending','sending')`))
        .rows[0].n;
      if (waiting === 0) break;
      await sleep(1000);
    }
    const present = async (sql, values) => new Set((await check.query(sql, [values])).rows.map((r) => r.v));
    const missing = (list, found) => list.filter((x) => !found.has(x));
    const signupsFound = await present('select email v from dealers where email = any($1)', acked.signups);
    const callsFound = await present('select email v from call_schedules where email = any($1)', acked.calls);
    const ordersFound = await present(
      'select external_order_id v from orders where external_order_id = any($1)',
      acked.orders,
    );
    const approvedFound = await present(
      `select id::text v from dealers where id = any($1::uuid[]) and status = 'approved'`,
      acked.decisions,
    );
    const queuedFor = await present(
      'select distinct lower(to_address) v from email_outbox where lower(to_address) = any($1)',
      acked.signups.map((e) => e.toLowerCase()),
    );
    const quotesFound = await present(
      'select distinct lower(homeowner_email) v from jobs where lower(homeowner_email) = any($1)',
      acked.quotes.map((e) => e.toLowerCase()),
    );
    const acceptedFound = await present(
      `select j.id::text v from jobs j join job_offers o on o.job_id = j.id and o.status = 'accepted'
       where j.id = any($1::uuid[]) and j.installer_id = o.dealer_id and j.status = 'accepted'`,
      acked.accepts,
    );
    // Two installers can never hold one job; every routed job has its one open offer or none.
    const jobs = (
      await check.query(`select
        (select count(*)::int from jobs) as jobs,
        (select count(*)::int from (select job_id from job_offers where status in ('accepted', 'assigned')
           group by 1 having count(*) > 1) x) as held_twice,
        (select count(*)::int from (select job_id from job_offers where status = 'open'
           group by 1 having count(*) > 1) x) as open_twice,
        (select count(*)::int from jobs j where j.status = 'offered'
           and not exists (select 1 from job_offers o where o.job_id = j.id and o.status = 'open')) as offered_without_offer,
        (select count(*)::int from job_offers where status = 'declined') as declines`)
    ).rows[0];
    const sentRows = (await check.query(`select count(*)::int n from email_outbox where status = 'sent'`)).rows[0].n;
    await check.end();
    const byKey = new Map();
    // One message is one outbox row, named by its Message-ID (decision 0983): the reviewers' "no
    // installer" emails share a recipient and a subject, yet each is its own message.
    for (const m of smtp.received) {
      const key = `${m.to}|${m.messageId || m.subject}`;
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    const twice = [...byKey].filter(([, n]) => n > 1);

    const result = {
      ranAt: new Date(startedAt).toISOString(),
      minutes: MINUTES,
      clients: USERS,
      postgresRestarted: RESTART_PG,
      pooler: POOLER
        ? { mode: 'transaction', pgbouncer: pgbouncerVersion(), startTogether, recovery: poolerRecovery }
        : null,
      faults,
      phases: phaseTable(faults),
      p95PerMinute: p95PerMinute(),
      fiveXxOutsideFaults: fiveXxOutside(faults),
      writes: {
        signups: { acknowledged: acked.signups.length, missing: missing(acked.signups, signupsFound) },
        calls: { acknowledged: acked.calls.length, missing: missing(acked.calls, callsFound) },
        orders: { acknowledged: acked.orders.length, missing: missing(acked.orders, ordersFound) },
        bulkApprovals: { acknowledged: acked.decisions.length, missing: missing(acked.decisions, approvedFound) },
        quoteRequests: {
          acknowledged: acked.quotes.length,
          missing: missing(
            acked.quotes.map((e) => e.toLowerCase()),
            quotesFound,
          ),
        },
        offersAccepted: { acknowledged: acked.accepts.length, missing: missing(acked.accepts, acceptedFound) },
        signupEmailsQueued: {
          expected: acked.signups.length,
          missing: missing(
            acked.signups.map((e) => e.toLowerCase()),
            queuedFor,
          ),
        },
      },
      email: {
        received: smtp.received.length,
        sentRowsInOutbox: sentRows,
        stillWaiting: waiting,
        receivedTwice: twice,
      },
      jobs,
      proxy: { answeredBy: { A: proxy.counts[0], B: proxy.counts[1] } },
      rss: rssSummary(rss),
    };
    writeFileSync(join(here, `${OUT}-results.json`), `${JSON.stringify({ ...result, rssSamples: rss }, null, 1)}\n`);
    writeFileSync(join(here, `${OUT}-results.md`), markdown(result));
    writeFileSync(join(here, `${OUT}.svg`), chart(rss, result));
    log(`done: ${records.length} requests; results in bench/${OUT}-results.md`);
    process.stdout.write(markdown(result));
  } finally {
    await proxy?.close();
    await a?.stop().catch(() => {});
    await b?.stop().catch(() => {});
    smtp.close();
    await bouncer?.stop();
    if (!(await postgresAnswers())) await ensurePostgres();
    const c = new pg.Client({ connectionString: PG_ADMIN });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
  }
}

// ---------------------------------------------------------------- the report
function phaseOf(t, faults) {
  const kill = faults.find((f) => f.what.startsWith('instance A killed'))?.at ?? Number.POSITIVE_INFINITY;
  const pgr = faults.find((f) => /^(PostgreSQL|PgBouncer)/.test(f.what))?.at ?? Number.POSITIVE_INFINITY;
  return t < kill
    ? '1 before the faults'
    : t < pgr
      ? '2 after SIGKILL of A'
      : `3 after the ${POOLER ? 'PgBouncer' : 'PostgreSQL'} restart`;
}

function pgbouncerVersion() {
  const r = spawnSync('/usr/sbin/pgbouncer', ['--version'], { encoding: 'utf8' });
  return (r.stdout ?? '').split('\n')[0].trim() || 'PgBouncer';
}

function phaseTable(faults) {
  const out = {};
  for (const r of records) {
    const key = phaseOf(r.t, faults);
    out[key] ??= { requests: 0, byStatus: {}, retried: 0 };
    const p = out[key];
    p.requests++;
    p.byStatus[r.status] = (p.byStatus[r.status] ?? 0) + 1;
    if (r.attempts > 1) p.retried++;
  }
  return out;
}

/** 5xx (or no answer) after all retries, more than 30 s after any fault. */
function fiveXxOutside(faults) {
  return records.filter(
    (r) => (r.status >= 500 || r.status === 0) && !faults.some((f) => r.t >= f.at - 1000 && r.t <= f.at + 30_000),
  ).length;
}

function p95PerMinute() {
  const out = [];
  for (let m = 0; m < MINUTES; m++) {
    const ms = records
      .filter((r) => r.t >= m * 60_000 && r.t < (m + 1) * 60_000)
      .map((r) => r.ms)
      .sort((x, y) => x - y);
    out.push({ minute: m + 1, requests: ms.length, p95Ms: ms.length ? ms[Math.floor(ms.length * 0.95)] : null });
  }
  return out;
}

function rssSummary(rss) {
  const warm = Math.min(60_000, DURATION_MS * 0.2);
  const out = {};
  for (const [name, samples] of Object.entries(rss)) {
    // A's samples restart with its new process: its growth is measured on the process that ran last.
    const lastStart = samples.findLastIndex(([, v]) => v === null);
    const run = samples.slice(lastStart + 1).filter(([, v]) => v !== null);
    const from = run.find(([t]) => t >= (lastStart >= 0 ? samples[lastStart][0] + warm : warm)) ?? run[0];
    const last = run.at(-1);
    out[name] =
      from && last
        ? {
            afterWarmUpMb: +(from[1] / 2 ** 20).toFixed(1),
            endMb: +(last[1] / 2 ** 20).toFixed(1),
            growthPct: +(((last[1] - from[1]) / from[1]) * 100).toFixed(1),
            peakMb: +(Math.max(...run.map(([, v]) => v)) / 2 ** 20).toFixed(1),
          }
        : null;
  }
  return out;
}

function markdown(r) {
  const L = [];
  if (r.pooler) {
    L.push(`# Soak and failover through PgBouncer in transaction mode (SOAK_POOLER=1 pnpm soak)`, '');
    L.push(
      `Run ${r.ranAt}: **${r.minutes} minutes**, ${r.clients} clients through a round-robin proxy to two instances, each reaching one throwaway PostgreSQL database through our own ${r.pooler.pgbouncer} (\`pool_mode = transaction\`, DATABASE_URL with \`?pgbouncer=true\`). The instances started together on the empty database (both ready after ${(r.pooler.startTogether.bothReadyMs / 1000).toFixed(1)} s). Chart: soak-pooler.svg.`,
      '',
    );
  } else {
    L.push(`# Soak and failover (pnpm soak)`, '');
    L.push(
      `Run ${r.ranAt}: **${r.minutes} minutes**, ${r.clients} clients through a round-robin proxy to two instances on one PostgreSQL database (a throwaway one), PostgreSQL restart ${r.postgresRestarted ? 'on' : 'off'}. Chart: soak.svg.`,
      '',
    );
  }
  L.push('## Faults', '');
  for (const f of r.faults) L.push(`- at ${(f.at / 1000).toFixed(0)} s: ${f.what}`);
  L.push('', "## Requests by status, per phase (after the clients' retries)", '');
  L.push('| phase | requests | retried | by status |', '| --- | ---: | ---: | --- |');
  for (const [p, v] of Object.entries(r.phases).sort()) {
    L.push(
      `| ${p} | ${v.requests} | ${v.retried} | ${Object.entries(v.byStatus)
        .map(([s, n]) => `${s === '0' ? 'no answer' : s}: ${n}`)
        .join(', ')} |`,
    );
  }
  L.push('', `5xx or no answer (after retries) more than 30 s from any fault: **${r.fiveXxOutsideFaults}**.`, '');
  if (r.pooler) {
    const all = Object.values(r.phases).reduce(
      (n, v) => n + Object.entries(v.byStatus).reduce((m, [s, c]) => m + (s === '0' || Number(s) >= 500 ? c : 0), 0),
      0,
    );
    const secs = (ms) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
    L.push(
      `5xx or no answer (after retries) over the whole run, faults included: **${all}**. After the pooler came back, instance A served again in **${secs(r.pooler.recovery?.A ?? null)}**, B in **${secs(r.pooler.recovery?.B ?? null)}** (its /readyz, which reads the database through the pool; nobody's hand).`,
      '',
    );
  }
  L.push('## Acknowledged writes present at the end', '');
  L.push('| write | acknowledged | missing |', '| --- | ---: | ---: |');
  for (const [k, v] of Object.entries(r.writes))
    L.push(`| ${k} | ${v.acknowledged ?? v.expected} | ${v.missing.length} |`);
  L.push('', '## Email', '');
  L.push(
    `Received by the SMTP receiver: ${r.email.received}; outbox rows sent: ${r.email.sentRowsInOutbox}; still waiting at the end: ${r.email.stillWaiting}; received twice (same recipient and Message-ID, one an outbox row): **${r.email.receivedTwice.length}**.`,
    '',
  );
  L.push('## Memory (RSS)', '');
  L.push('| instance | after warm-up MB | end MB | growth | peak MB |', '| --- | ---: | ---: | ---: | ---: |');
  for (const [k, v] of Object.entries(r.rss))
    L.push(
      v ? `| ${k} | ${v.afterWarmUpMb} | ${v.endMb} | ${v.growthPct}% | ${v.peakMb} |` : `| ${k} | - | - | - | - |`,
    );
  L.push('', '## p95 latency per minute (client-side, retries included)', '');
  L.push('| minute | requests | p95 ms |', '| ---: | ---: | ---: |');
  for (const m of r.p95PerMinute) L.push(`| ${m.minute} | ${m.requests} | ${m.p95Ms ?? '-'} |`);
  L.push('', `Requests answered by instance A: ${r.proxy.answeredBy.A}, by B: ${r.proxy.answeredBy.B}.`, '');
  if (r.jobs)
    L.push(
      '## Installation network (issue 37)',
      '',
      `Homeowners' quote requests, installers polling their offers and accepting or declining them: ${r.jobs.jobs} jobs, ${r.jobs.declines} declines. Jobs held by two installers: **${r.jobs.held_twice}**; with two open offers: **${r.jobs.open_twice}**; offered with no open offer: **${r.jobs.offered_without_offer}**.`,
      '',
    );
  return `${L.join('\n')}\n`;
}

function chart(rss, r) {
  const min = (t) => +(t / 60_000).toFixed(2);
  return svgDoc(
    [
      {
        title: 'p95 latency per minute',
        yLabel: 'ms',
        xLabel: 'minute',
        logX: false,
        series: [{ name: 'p95 (retries included)', points: r.p95PerMinute.map((m) => [m.minute, m.p95Ms]) }],
      },
      {
        title: 'RSS per instance',
        yLabel: 'MB',
        xLabel: 'minute',
        logX: false,
        // A null sample marks a restart: each process of an instance is a line of its own.
        series: Object.entries(rss).flatMap(([name, s]) => {
          const runs = [[]];
          for (const [t, v] of s) {
            if (v === null) runs.push([]);
            else runs.at(-1).push([min(t), +(v / 2 ** 20).toFixed(1)]);
          }
          return runs
            .map((points, i) => ({ name: `instance ${name}${i > 0 ? ' after its restart' : ''}`, points }))
            .filter((series) => series.points.length > 0);
        }),
      },
    ],
    {
      title: `pnpm soak: ${r.minutes} min${r.pooler ? ' through PgBouncer (transaction mode)' : ''}, SIGKILL of A at ${(KILL_AT / 60_000).toFixed(1)} min${r.postgresRestarted ? `, PostgreSQL restart at ${(PG_AT / 60_000).toFixed(1)} min` : r.pooler ? `, pooler restart at ${(PG_AT / 60_000).toFixed(1)} min` : ''}`,
    },
  );
}

// `SOAK_MINUTES=<its minutes> node soak.mjs --render <run>-results.json`: a run's chart again, as <run>.svg.
const renderAt = process.argv.indexOf('--render');
if (renderAt !== -1) {
  const file = process.argv[renderAt + 1];
  const { rssSamples, ...result } = JSON.parse(readFileSync(file, 'utf8'));
  for (const samples of Object.values(rssSamples)) {
    // Runs before the sampler's fix read a dying process as null beside the restart's marker.
    for (let i = samples.length - 2; i >= 0; i--)
      if (samples[i][1] === null && samples[i + 1][1] === null) samples.splice(i, 1);
  }
  writeFileSync(file.replace(/-results\.json$/, '.svg'), chart(rssSamples, result));
} else {
  await main();
}
process.exit(0);
