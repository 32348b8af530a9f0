import { describe, expect, it } from 'vitest';
import { BASE_BACKOFF_MS, LEASE_MS, Scheduler } from '../src/services/scheduler/scheduler';
import type { Sweep } from '../src/services/scheduler/sweeps';
import { createDealer, type Harness, signInAdmin, signInDealer } from './helpers';
import { deferred, twoInstancesForFile } from './instances';

/**
 * The durable scheduler (issue 38): two apps on one database stand for two server instances; their
 * schedulers share the clock, so "the lease expired" and "the backoff passed" are clock moves.
 */
const t = twoInstancesForFile();
const { clock } = t;

/** A once-only effect, as a real sweep's: a row inserted unless it is there (conflict: nothing). */
async function effectOnce(h: Harness, key: string): Promise<number> {
  const r = await h.db
    .insertInto('rateLimits')
    .values({ key, count: 1, resetAt: new Date(Date.now() + 86_400_000) })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .execute();
  return r.length;
}
const effects = (h: Harness, key: string) =>
  h.db.selectFrom('rateLimits').select('key').where('key', '=', key).execute();

describe('scheduler', () => {
  it('runs a due sweep on one instance when two tick at the same time, then not again until it is due', async () => {
    let runs = 0;
    const gate = deferred();
    const started = deferred();
    const sweep: Sweep = {
      name: 'test.once-across-instances',
      everySeconds: 60,
      async run() {
        runs++;
        started.resolve();
        await gate.promise;
        return 1;
      },
    };
    const one = new Scheduler(t.a.app.deps, [sweep]);
    const two = new Scheduler(t.b.app.deps, [sweep]);
    const ticks = Promise.all([one.tick(), two.tick()]);
    // While the run goes on, a third tick finds the sweep leased too.
    await started.promise;
    expect(await two.tick()).toEqual([]);
    gate.resolve();
    const [x, y] = await ticks;
    expect(runs).toBe(1);
    expect([...x, ...y]).toEqual([{ name: sweep.name, ok: true, handled: 1 }]);
    expect(await Promise.all([one.tick(), two.tick()])).toEqual([[], []]);
    clock.advance(60_000);
    await Promise.all([one.tick(), two.tick()]);
    expect(runs).toBe(2);
  });

  it('takes up a run whose instance died once its lease expires; the effect happens once', async () => {
    const key = `test:crash:${Date.now()}`;
    let crashAfterEffect = true;
    const effected = deferred();
    const sweep: Sweep = {
      name: 'test.crash-mid-run',
      everySeconds: 600,
      async run() {
        const n = await effectOnce(t.a, key);
        effected.resolve();
        // The first instance "dies" after committing its effect: its run never ends, its lease stays.
        if (crashAfterEffect) await new Promise(() => {});
        return n;
      },
    };
    const dying = new Scheduler(t.a.app.deps, [sweep]);
    void dying.tick();
    await effected.promise;
    crashAfterEffect = false;
    const survivor = new Scheduler(t.b.app.deps, [sweep]);
    expect(await survivor.tick()).toEqual([]); // still leased
    clock.advance(LEASE_MS + 1_000);
    expect(await survivor.tick()).toEqual([{ name: sweep.name, ok: true, handled: 0 }]);
    expect(await effects(t.a, key)).toHaveLength(1);
  });

  it('retries a failing sweep with exponential backoff, keeps its last error, and resets on success', async () => {
    let fail = true;
    let runs = 0;
    const sweep: Sweep = {
      name: 'test.backoff',
      everySeconds: 3600,
      async run() {
        runs++;
        if (fail) throw new Error(`smtp down (run ${runs})`);
        return 0;
      },
    };
    const s = new Scheduler(t.a.app.deps, [sweep]);
    expect((await s.tick())[0]).toMatchObject({ ok: false, error: 'smtp down (run 1)' });
    expect(await s.tick()).toEqual([]);
    clock.advance(BASE_BACKOFF_MS - 1_000);
    expect(await s.tick()).toEqual([]); // not yet
    clock.advance(1_000);
    expect((await s.tick())[0]).toMatchObject({ ok: false });
    clock.advance(BASE_BACKOFF_MS); // the second wait is twice the first
    expect(await s.tick()).toEqual([]);
    clock.advance(BASE_BACKOFF_MS);
    expect((await s.tick())[0]).toMatchObject({ ok: false, error: 'smtp down (run 3)' });
    expect(runs).toBe(3);

    const cookie = await signInAdmin(t.a.app);
    const res = await t.a.app.inject({ method: 'GET', url: '/api/admin/scheduler/sweeps', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const listed = (res.json() as { name: string }[]).map((r) => r.name);
    expect(listed).toContain('accounts.prune-sessions');

    clock.advance(4 * BASE_BACKOFF_MS);
    fail = false;
    expect((await s.tick())[0]).toEqual({ name: sweep.name, ok: true, handled: 0 });
  });

  it('runs the registered sweeps from the server and shows their state to admins only', async () => {
    const s = new Scheduler(t.a.app.deps);
    const outcomes = await s.tick();
    expect(outcomes.map((o) => o.name)).toEqual(expect.arrayContaining(['accounts.prune-sessions']));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const cookie = await signInAdmin(t.a.app);
    const res = await t.a.app.inject({ method: 'GET', url: '/api/admin/scheduler/sweeps', headers: { cookie } });
    const row = (res.json() as Record<string, unknown>[]).find((r) => r.name === 'accounts.prune-sessions');
    expect(row).toMatchObject({ failures: 0, lastError: null, running: false, due: false, runs: 1 });
    expect(new Date(row!.nextRunAt as string).getTime()).toBeGreaterThan(clock.now().getTime());
    const anon = await t.a.app.inject({ method: 'GET', url: '/api/admin/scheduler/sweeps' });
    expect(anon.statusCode).toBe(401);
    const dealer = await createDealer(t.a.db);
    const asDealer = await t.a.app.inject({
      method: 'GET',
      url: '/api/admin/scheduler/sweeps',
      headers: { cookie: await signInDealer(t.a.app, dealer.email) },
    });
    expect(asDealer.statusCode).toBe(403);
  });
});
