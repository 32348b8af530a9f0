import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, sql } from '@dn/db';
import { createEmptyPostgresDatabase } from '@dn/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, clientIp, freePort, ownPostgres, post, type Server, startServer } from './processes';
import { application } from './support';
import { limit } from './time';

/**
 * Durability with real processes: the private build (global setup) started with `node`,
 * killed with SIGKILL, and a PostgreSQL of our own stopped and started under load.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  email: string;
  status: number | 'network';
  text: string;
}

/** Signups from `workers` concurrent clients until stopped; every answer is recorded. */
function signupLoad(url: () => string, workers = 4) {
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const worker = async () => {
    while (running) {
      const email = `load.${Date.now().toString(36)}.${++n}@example.com`;
      try {
        const res = await post(`${url()}/api/dealer-signup`, application(email));
        outcomes.push({ email, status: res.status, text: res.text });
      } catch {
        outcomes.push({ email, status: 'network', text: '' });
        await sleep(50);
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, worker));
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Waits (the machine may be busy) until the load has had `n` writes acknowledged. */
async function ackedAtLeast(outcomes: Outcome[], n: number, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (acked(outcomes).length < n) {
    if (Date.now() > deadline)
      throw new Error(`only ${acked(outcomes).length} of ${n} writes acknowledged in ${ms} ms`);
    await sleep(50);
  }
}

const acked = (o: Outcome[]) => o.filter((x) => typeof x.status === 'number' && x.status >= 200 && x.status < 300);

async function storedEmails(query: (text: string) => Promise<{ rows: Array<{ email: string; n: string }> }>) {
  const r = await query(
    "select lower(email) as email, count(*)::text as n from dealers where email like 'load.%' group by 1",
  );
  return new Map(r.rows.map((x) => [x.email, Number(x.n)]));
}

function pgQuery(url: string) {
  return async (text: string) => {
    const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
    try {
      const r = await sql.raw<{ email: string; n: string }>(text).execute(database.db);
      return { rows: r.rows };
    } finally {
      await database.close();
    }
  };
}

function expectDurable(outcomes: Outcome[], stored: Map<string, number>) {
  const ok = acked(outcomes);
  expect(ok.length).toBeGreaterThan(10);
  for (const o of ok) expect(stored.get(o.email), o.email).toBe(1);
  for (const [email, n] of stored) expect(n, email).toBe(1);
  // Nothing stored that nobody asked for.
  const asked = new Set(outcomes.map((o) => o.email));
  for (const email of stored.keys()) expect(asked.has(email)).toBe(true);
}

describe('durability with real processes', { timeout: limit(600_000) }, () => {
  it('SIGKILL and restart mid-load: every acknowledged signup exists once, retries do not duplicate', async () => {
    const db = await createEmptyPostgresDatabase();
    cleanups.push(() => db.drop());
    const port = await freePort();
    const env = { DATABASE_URL: db.url };
    let server: Server = await startServer({ port, env });
    cleanups.push(() => server.kill());
    const load = signupLoad(() => server.url);
    await ackedAtLeast(load.outcomes, 12);
    await server.kill('SIGKILL');
    await sleep(300);
    server = await startServer({ port, env });
    await ackedAtLeast(load.outcomes, acked(load.outcomes).length + 8);
    await load.stop();

    const unanswered = load.outcomes.filter((x) => x.status === 'network').length;
    expect(unanswered).toBeGreaterThan(0);
    // A client retries what got no answer: the write either happened once or happens now.
    for (const o of load.outcomes.filter(
      (x) => x.status === 'network' || (typeof x.status === 'number' && x.status >= 500),
    )) {
      const res = await post(`${server.url}/api/dealer-signup`, application(o.email));
      expect([200, 201, 409]).toContain(res.status);
      if (res.status < 300) o.status = res.status;
      else o.status = 409;
    }
    expectDurable(load.outcomes, await storedEmails(pgQuery(db.url)));
    await server.kill('SIGTERM');
    expect(server.proc.exitCode).toBe(0);
  });

  it('PostgreSQL stopped and started under load: 503s during the outage, recovery by itself, no acknowledged write lost', async () => {
    const own = await ownPostgres();
    cleanups.push(() => own.destroy());
    const server = await startServer({ env: { DATABASE_URL: own.url } });
    cleanups.push(() => server.kill());
    const load = signupLoad(() => server.url, 3);
    await ackedAtLeast(load.outcomes, 12);
    own.stop('immediate');
    await sleep(500);

    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { message?: string }).message).toBeTruthy();
    const during = await post(`${server.url}/api/dealer-signup`, application(`outage.${Date.now()}@example.com`));
    expect(during.status).toBe(503);
    expect(JSON.parse(during.text).message).toMatch(/temporarily unavailable/);
    const read = await fetch(`${server.url}/api/landing-videos`);
    expect(read.status).toBe(503);
    const trpcRead = await fetch(`${server.url}/trpc/site.landingVideos`);
    expect(trpcRead.status).toBe(503);
    const login = await post(`${server.url}/api/admin/login`, ADMIN);
    expect(login.status).toBe(503);
    await sleep(1_500);
    expect(server.proc.exitCode).toBeNull();

    own.start();
    const deadline = Date.now() + 30_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      recovered = (await fetch(`${server.url}/readyz`)).status === 200;
      if (!recovered) await sleep(250);
    }
    expect(recovered).toBe(true);
    await ackedAtLeast(load.outcomes, acked(load.outcomes).length + 8);
    await load.stop();

    const statuses = new Set(load.outcomes.map((o) => o.status));
    for (const s of statuses) expect([200, 201, 503], `status ${s}`).toContain(s);
    expect(statuses.has(503)).toBe(true);
    const afterOutage = load.outcomes.slice(-5);
    expect(afterOutage.every((o) => o.status === 200 || o.status === 201)).toBe(true);
    // Every outcome counts as asked: a write cut off mid-answer may or may not have committed.
    expectDurable(load.outcomes, await storedEmails(pgQuery(own.url)));
    expect(server.proc.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/uncaught|unhandled/i);
  });

  it('PGlite: the data folder survives a SIGKILL with every acknowledged signup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dn-sec-pglite-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DATABASE_URL: undefined, DATA_DIR: dir, SESSION_SECRET: undefined };
    const port = await freePort();
    let server = await startServer({ port, env });
    cleanups.push(() => server.kill());
    const load = signupLoad(() => server.url, 2);
    await ackedAtLeast(load.outcomes, 15);
    await server.kill('SIGKILL');
    await load.stop();
    server = await startServer({ port, env });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const after = await post(`${server.url}/api/dealer-signup`, application(`load.after.${Date.now()}@example.com`));
    expect(after.status).toBeLessThan(300);
    await server.kill('SIGTERM');
    // A clean stop closes PGlite (its files complete) before exiting.
    expect(server.proc.exitCode, server.output()).toBe(0);
    const database = await openDatabase({ dataDir: dir });
    try {
      const stored = await storedEmails(async (text) => {
        const r = await sql.raw<{ email: string; n: string }>(text).execute(database.db);
        return { rows: r.rows };
      });
      expectDurable(load.outcomes, new Map([...stored].filter(([e]) => !e.startsWith('load.after.'))));
      expect(
        [...stored.keys()].filter((e) => e.startsWith('load.after.')),
        server.output(),
      ).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('two instances on one PostgreSQL share sessions and rate limits, and limits outlive a restart', async () => {
    const db = await createEmptyPostgresDatabase();
    cleanups.push(() => db.drop());
    const env = { DATABASE_URL: db.url };
    let a = await startServer({ env });
    cleanups.push(() => a.kill());
    const b = await startServer({ env });
    cleanups.push(() => b.kill());

    const login = await post(`${a.url}/api/admin/login`, ADMIN);
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const me = (s: Server) => fetch(`${s.url}/api/auth/user`, { headers: { cookie } });
    expect((await me(b)).status).toBe(200);
    expect((await me(a)).status).toBe(200);
    expect((await post(`${b.url}/api/auth/logout`, {}, { cookie })).status).toBe(200);
    expect((await me(a)).status).toBe(401);

    const victim = 'victim@example.com';
    for (let i = 0; i < 5; i++) {
      const res = await post(`${i % 2 ? a.url : b.url}/api/dealer/login`, { username: victim, password: `guess-${i}` });
      expect(res.status).toBe(401);
    }
    expect((await post(`${a.url}/api/dealer/login`, { username: victim, password: 'guess-x' })).status).toBe(429);
    expect((await post(`${b.url}/api/dealer/login`, { username: victim, password: 'guess-y' })).status).toBe(429);
    await a.kill('SIGKILL');
    a = await startServer({ env, port: a.port });
    const afterRestart = await post(`${a.url}/api/dealer/login`, { username: victim, password: 'guess-z' });
    expect(afterRestart.status).toBe(429);
    expect(Number(afterRestart.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same address and another account: not limited.
    expect(
      (
        await post(
          `${a.url}/api/dealer/login`,
          { username: 'other@example.com', password: 'x' },
          { 'x-forwarded-for': clientIp() },
        )
      ).status,
    ).toBe(401);
  });
});
