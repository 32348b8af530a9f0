import { MIGRATION_LOCK_ID, openDatabase } from '@dn/db';
import { createEmptyPostgresDatabase } from '@dn/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type OwnPgbouncer, ownPgbouncer, pgbouncerInstalled } from './pgbouncer';
import { ADMIN, clientIp, ownPostgres, type Server, startServer } from './processes';
import { application, booking } from './support';
import { limit } from './time';

/**
 * Issue 46: two instances behind PgBouncer in transaction mode (DATABASE_URL with ?pgbouncer=true).
 * Started together on an empty database, a session made on one used on the other, mixed load with
 * one instance restarted while the other serves, then the pooler killed and started again: no 5xx
 * outside the pooler's outage, and both instances serve again within 30 s of its return.
 *
 * Needs Debian's pgbouncer (/usr/sbin/pgbouncer; .ci/run installs it). Without it the file is
 * skipped with a message, except in CI (REQUIRE_POSTGRES=1), where its absence is a failure.
 * POOLER_LOAD_SECONDS sets the load's length (default 60).
 */

const inCi = process.env.REQUIRE_POSTGRES === '1' || process.env.CI === 'true';
const present = pgbouncerInstalled();
if (!present && !inCi) {
  process.stderr.write(
    '\n*** pgbouncer is not installed (/usr/sbin/pgbouncer): the transaction-mode pooler test is SKIPPED (apt-get install pgbouncer). ***\n\n',
  );
}
const LOAD_SECONDS = Number(process.env.POOLER_LOAD_SECONDS ?? 60);
const RECOVERY_LIMIT_MS = 30_000;
/** The load's kinds of request (its `actions`, in order), each answered this many times in each half. */
const KINDS = ['videos', 'me', 'dealers', 'calls', 'signup', 'call', 'bad sign-in'] as const;
const MIN_EACH = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
});

interface Tally {
  requests: number;
  byStatus: Record<string, number>;
  fiveXx: string[];
}

/**
 * A load balancer as a test: sends each request to the next instance that is ready (its /readyz
 * polled every 300 ms, as an orchestrator's health check would), and a request refused at the
 * connection to the other one. An instance being stopped is taken out first, as a deploy drains it.
 */
function balancer(servers: Server[]) {
  const ready = servers.map(() => true);
  // Taken out by a deploy: out until it is put back, whatever a health check that was under way
  // when it was drained answers (under load, a /readyz asked before the drain answered ok after it,
  // put the stopping instance back, and it answered a request 503 while closing).
  const drained = servers.map(() => false);
  let next = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      await Promise.all(
        servers.map(async (s, i) => {
          try {
            const r = await fetch(`${s.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
            ready[i] = r.ok;
          } catch {
            ready[i] = false;
          }
        }),
      );
      await sleep(300);
    }
  })();
  return {
    ready,
    drain(i: number) {
      drained[i] = true;
      ready[i] = false;
    },
    restore(i: number) {
      drained[i] = false;
    },
    async fetch(path: string, init: RequestInit = {}): Promise<{ status: number; text: string; server: number }> {
      for (let attempt = 0; attempt < 20; attempt++) {
        const candidates = servers.map((_, i) => i).filter((i) => ready[i] && !drained[i]);
        if (candidates.length === 0) {
          await sleep(100);
          continue;
        }
        const i = candidates[next++ % candidates.length]!;
        try {
          const r = await fetch(`${servers[i]!.url}${path}`, { ...init, signal: AbortSignal.timeout(20_000) });
          return { status: r.status, text: await r.text(), server: i };
        } catch {
          // Refused or cut before an answer: that instance is going down; the next ready one.
          ready[i] = false;
        }
      }
      return { status: 0, text: 'no instance answered', server: -1 };
    },
    async stop() {
      polling = false;
      await poll;
    },
  };
}

const json = (body: unknown, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': clientIp(), ...extra },
  body: JSON.stringify(body),
});

describe.runIf(present || inCi)(
  'two instances behind PgBouncer in transaction mode',
  { timeout: limit(600_000) },
  () => {
    it('start together, share a session, serve a mixed load with no 5xx through a restart, and recover from a pooler restart', async () => {
      expect(present, 'pgbouncer must be installed in CI (.ci/run installs it)').toBe(true);
      const db = await createEmptyPostgresDatabase();
      cleanups.push(() => db.drop());
      const dbName = new URL(db.url).pathname.slice(1);
      const bouncer: OwnPgbouncer = await ownPgbouncer({ poolSize: 8 });
      cleanups.push(() => bouncer.destroy());
      const env = { DATABASE_URL: bouncer.url(dbName), DATABASE_POOL_SIZE: '4', RATE_LIMIT_MULTIPLIER: '1000' };

      // Started together on an empty database, through the pooler: one migrates and creates the
      // admin, the other waits for the migration and finds the admin.
      const started = Date.now();
      const [a0, b] = await Promise.all([startServer({ env }), startServer({ env })]);
      let a = a0;
      cleanups.push(() => a.kill());
      cleanups.push(() => b.kill());
      const startMs = Date.now() - started;
      const direct = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
      cleanups.push(() => direct.close());
      expect((await direct.db.selectFrom('admins').select('username').execute()).map((r) => r.username)).toEqual([
        ADMIN.username,
      ]);

      // Exactly one of them applied the migrations.
      expect([a0, b].filter((s) => s.output().includes('database migrated'))).toHaveLength(1);

      // A session made on one instance works on the other (it answered 500 with numbered statement names).
      const login = await fetch(`${a.url}/api/admin/login`, json(ADMIN));
      expect(login.status).toBe(200);
      const admin = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      for (const s of [b, a, b]) {
        expect((await fetch(`${s.url}/api/auth/user`, { headers: { cookie: admin } })).status).toBe(200);
        expect((await fetch(`${s.url}/api/admin/dealers`, { headers: { cookie: admin } })).status).toBe(200);
      }

      const servers = [a, b];
      const lb = balancer(servers);
      const tally: Tally = { requests: 0, byStatus: {}, fiveXx: [] };
      const signups: string[] = [];
      let n = 0;
      // Each half of the load lasts LOAD_SECONDS / 2 and until every kind of request has been answered
      // MIN_EACH times in it. The half-minute alone was a speed test: beside stress-ng and the browser
      // suite it made 27 requests in 60 s and failed a floor of 300, without a 5xx (issue 46).
      let half: Record<string, number> = {};
      const halves: Array<Record<string, number>> = [];
      const halfOfLoad = async () => {
        half = {};
        halves.push(half);
        const t0 = Date.now();
        while (Date.now() - t0 < (LOAD_SECONDS * 1000) / 2 || KINDS.some((k) => (half[k] ?? 0) < MIN_EACH))
          await sleep(200);
      };
      const record = (what: string, r: { status: number; text: string }) => {
        half[what] = (half[what] ?? 0) + 1;
        tally.requests++;
        tally.byStatus[r.status] = (tally.byStatus[r.status] ?? 0) + 1;
        if (r.status >= 500 || r.status === 0) tally.fiveXx.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
      };
      const actions: Array<() => Promise<void>> = [
        async () => record('videos', await lb.fetch('/api/landing-videos')),
        async () => record('me', await lb.fetch('/api/auth/user', { headers: { cookie: admin } })),
        async () => record('dealers', await lb.fetch('/api/admin/dealers', { headers: { cookie: admin } })),
        async () => record('calls', await lb.fetch('/api/call-schedules', { headers: { cookie: admin } })),
        async () => {
          const email = `pooler.${Date.now().toString(36)}.${++n}@example.com`;
          const r = await lb.fetch('/api/dealer-signup', json(application(email)));
          record('signup', r);
          if (r.status === 200) signups.push(email);
        },
        async () => record('call', await lb.fetch('/api/schedule-call', json(booking(`call.${++n}@example.com`)))),
        async () =>
          record(
            'bad sign-in',
            await lb.fetch('/api/dealer/login', json({ username: `x${++n}@example.com`, password: 'wrong-pass' })),
          ),
      ];
      let running = true;
      const worker = async (w: number) => {
        let k = w;
        while (running) {
          await actions[k++ % actions.length]!();
          await sleep(20);
        }
      };
      const workers = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));

      // Halfway through, instance A restarts (drained, SIGTERM, started again on its port) while B serves.
      await halfOfLoad();
      lb.drain(0);
      await a.kill('SIGTERM');
      const restartAt = Date.now();
      a = await startServer({ env, port: a.port });
      servers[0] = a;
      lb.restore(0);
      const restartMs = Date.now() - restartAt;
      await halfOfLoad();
      running = false;
      await workers;
      const load = { ...tally, fiveXx: [...tally.fiveXx] };

      // The pooler killed (every connection cut) and started again on its port: both instances
      // serve a database read again within 30 s of its return, with nobody's hand.
      await bouncer.kill();
      await sleep(1_000);
      await bouncer.start();
      const back = Date.now();
      const recovered: number[] = [];
      await Promise.all(
        [a, b].map(async (s) => {
          while (Date.now() - back < 60_000) {
            const r = await fetch(`${s.url}/api/admin/dealers`, { headers: { cookie: admin } }).catch(() => null);
            if (r?.status === 200) {
              recovered.push(Date.now() - back);
              return;
            }
            await sleep(200);
          }
        }),
      );
      // And a short load after it: nothing left broken.
      const after: Tally = { requests: 0, byStatus: {}, fiveXx: [] };
      Object.assign(tally, after);
      half = {};
      running = true;
      const again = Promise.all(Array.from({ length: 4 }, (_, w) => worker(w)));
      await sleep(5_000);
      running = false;
      await again;
      await lb.stop();

      const stored = new Set(
        (
          await direct.db
            .selectFrom('dealers')
            .select('email')
            .where('email', 'in', signups.length ? signups : ['-'])
            .execute()
        ).map((r) => r.email),
      );
      const report = {
        startTogetherMs: startMs,
        loadSeconds: LOAD_SECONDS,
        load: { requests: load.requests, byStatus: load.byStatus, fiveXx: load.fiveXx.length, halves },
        restartOfAMs: restartMs,
        poolerRecoveryMs: recovered,
        afterPoolerRestart: { requests: tally.requests, byStatus: tally.byStatus, fiveXx: tally.fiveXx.length },
        signupsAcknowledged: signups.length,
        signupsMissing: signups.filter((e) => !stored.has(e)).length,
      };
      process.stdout.write(`\npooler test: ${JSON.stringify(report)}\n`);
      expect(load.fiveXx.slice(0, 5)).toEqual([]);
      expect(halves.map((h) => KINDS.every((k) => (h[k] ?? 0) >= MIN_EACH))).toEqual([true, true]);
      expect(recovered).toHaveLength(2);
      expect(Math.max(...recovered)).toBeLessThan(RECOVERY_LIMIT_MS);
      expect(tally.fiveXx.slice(0, 5)).toEqual([]);
      expect(report.signupsMissing).toBe(0);
      // Neither instance died along the way, and no lock is left held on a pooled connection.
      expect(b.proc.exitCode).toBeNull();
      expect(a.proc.exitCode).toBeNull();
      const locks = await direct.db
        .selectFrom('pg_locks' as never)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('locktype' as never, '=', 'advisory' as never)
        .executeTakeFirstOrThrow();
      expect(Number(locks.n)).toBe(0);
    });
  },
);

describe.runIf(present || inCi)('PostgreSQL restarted behind the pooler', { timeout: limit(600_000) }, () => {
  it('both instances serve again within 30 s of PostgreSQL answering, with nobody restarting them', async () => {
    const own = await ownPostgres();
    cleanups.push(() => own.destroy());
    const bouncer = await ownPgbouncer({ poolSize: 4, upstreamPort: Number(new URL(own.url).port) });
    cleanups.push(() => bouncer.destroy());
    const env = { DATABASE_URL: bouncer.url('postgres'), DATABASE_POOL_SIZE: '3' };
    const servers = await Promise.all([startServer({ env }), startServer({ env })]);
    for (const s of servers) cleanups.push(() => s.kill());
    const login = await fetch(`${servers[0]!.url}/api/admin/login`, json(ADMIN));
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const read = (s: Server) =>
      fetch(`${s.url}/api/admin/dealers`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) })
        .then((r) => r.status)
        .catch(() => 0);
    for (const s of servers) expect(await read(s)).toBe(200);

    // Every server connection cut without a goodbye, as a crash would; the instances keep polling.
    own.stop('immediate');
    const during = await Promise.all(servers.map(read));
    expect(during.every((status) => status === 503 || status === 500 || status === 0)).toBe(true);
    own.start();
    const back = Date.now();
    const recovered = await Promise.all(
      servers.map(async (s) => {
        while (Date.now() - back < 60_000) {
          if ((await read(s)) === 200) return Date.now() - back;
          await sleep(200);
        }
        return null;
      }),
    );
    process.stdout.write(`\npostgres restart behind the pooler: serving again after ${JSON.stringify(recovered)} ms\n`);
    for (const ms of recovered) {
      expect(ms).not.toBeNull();
      expect(ms!).toBeLessThan(RECOVERY_LIMIT_MS);
    }
    for (const s of servers) expect(s.proc.exitCode).toBeNull();
  });
});

describe('a start that waits for another instance migrating', { timeout: limit(600_000) }, () => {
  it('answers /healthz (starting) and /readyz 503 while it waits, logs the wait, and serves once the lock is free', async () => {
    const db = await createEmptyPostgresDatabase();
    cleanups.push(() => db.drop());
    // Another "instance" migrating: a session holding the migration lock.
    const holderDb = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
    cleanups.push(() => holderDb.close());
    const holder = await holderDb.pool.connect();
    cleanups.push(() => holder.release());
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    const s = await startServer({ env: { DATABASE_URL: db.url }, waitReady: false });
    cleanups.push(() => s.kill());
    const deadline = Date.now() + 60_000;
    while (!s.output().includes('waiting for the migration lock')) {
      expect(Date.now() < deadline, s.output()).toBe(true);
      expect(s.proc.exitCode, s.output()).toBeNull();
      await sleep(100);
    }
    const health = await fetch(`${s.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'starting' });
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect((await fetch(`${s.url}/api/landing-videos`)).status).toBe(503);
    await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    while (((await fetch(`${s.url}/readyz`).catch(() => null))?.status ?? 0) !== 200) {
      expect(Date.now() < deadline + 60_000, s.output()).toBe(true);
      expect(s.proc.exitCode, s.output()).toBeNull();
      await sleep(200);
    }
    expect((await fetch(`${s.url}/api/landing-videos`)).status).toBe(200);
  });

  it('gives up with a clear one-line error after MIGRATION_LOCK_WAIT_SECONDS', async () => {
    const db = await createEmptyPostgresDatabase();
    cleanups.push(() => db.drop());
    const holderDb = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
    cleanups.push(() => holderDb.close());
    const holder = await holderDb.pool.connect();
    cleanups.push(() => holder.release());
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    const s = await startServer({ env: { DATABASE_URL: db.url, MIGRATION_LOCK_WAIT_SECONDS: '3' }, waitReady: false });
    cleanups.push(() => s.kill());
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(/Gave up after waiting \d+ s for the migration lock/);
    expect(s.output()).not.toMatch(/\n\s+at /); // no stack trace
  });
});
