import {
  claimDueSweep,
  failSweep,
  finishSweep,
  listSweeps,
  registerSweeps,
  type SweepRow,
} from '@dn/db/queries/scheduled-sweeps';
import type { Deps } from '../../context';
import { SWEEPS, type Sweep } from './sweeps';

/**
 * The durable scheduler (issue 38, decision 0940). Each sweep has a row (scheduled_sweeps): when it
 * runs next, its last run and error, its failures. Every `tickMs` each instance claims due sweeps one
 * at a time with a lease (a conditional update with SKIP LOCKED), runs them and records the outcome:
 * a success schedules the next run `everySeconds` later; a failure is retried after an exponential
 * backoff; a run whose instance died is taken up by another once its lease expires. Sweeps are
 * once-only by their own conditional updates, so a run repeated after a crash repeats nothing.
 * All times come from `deps.clock`.
 */

/** How long an instance holds a sweep it runs; a run still going after this may be taken up again. */
export const LEASE_MS = 5 * 60_000;
/** The first retry after a failure; each further failure doubles it, up to MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 30_000;
export const MAX_BACKOFF_MS = 60 * 60_000;
const MAX_ERROR_CHARS = 1_000;

/** The wait before retrying a sweep that has now failed `failures` times in a row (1, 2, ...). */
export function backoffAfter(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, failures - 1));
}

export interface SweepOutcome {
  name: string;
  ok: boolean;
  handled?: number;
  error?: string;
}

export class Scheduler {
  private registered = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepOutcome[]> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: Deps,
    private readonly sweeps: readonly Sweep[] = SWEEPS,
  ) {}

  private get names(): string[] {
    return this.sweeps.map((s) => s.name);
  }

  /** Runs every sweep that is due now, each on this instance only if no other holds it. */
  async tick(): Promise<SweepOutcome[]> {
    const { db, clock } = this.deps;
    if (!this.registered) {
      await registerSweeps(db, this.sweeps, clock.now());
      this.registered = true;
    }
    const outcomes: SweepOutcome[] = [];
    const done = new Set<string>();
    for (;;) {
      const now = clock.now();
      const names = this.names.filter((n) => !done.has(n));
      const claimed = await claimDueSweep(db, names, now, new Date(now.getTime() + LEASE_MS));
      if (!claimed) return outcomes;
      done.add(claimed.name);
      const sweep = this.sweeps.find((s) => s.name === claimed.name)!;
      try {
        const handled = await sweep.run(this.deps);
        const end = clock.now();
        await finishSweep(db, sweep.name, {
          now: end,
          handled,
          nextRunAt: new Date(end.getTime() + sweep.everySeconds * 1000),
        });
        outcomes.push({ name: sweep.name, ok: true, handled });
      } catch (err) {
        const end = clock.now();
        const error = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_CHARS);
        await failSweep(db, sweep.name, {
          now: end,
          error,
          nextRunAt: new Date(end.getTime() + backoffAfter(claimed.failures + 1)),
        });
        this.deps.log.warn({ err, sweep: sweep.name, failures: claimed.failures + 1 }, 'sweep failed; retried later');
        outcomes.push({ name: sweep.name, ok: false, error });
      }
    }
  }

  /** Ticks every `intervalMs` (a tick never overlaps the previous one). */
  start(intervalMs = 15_000): void {
    if (this.timer) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick().catch((err) => {
        this.deps.log.warn({ err }, 'scheduler tick failed');
        return [];
      });
      void this.running.finally(() => {
        this.running = null;
        if (!this.stopped) this.timer = setTimeout(loop, intervalMs).unref();
      });
    };
    this.timer = setTimeout(loop, 0).unref();
  }

  /** Stops ticking and waits for a tick in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** What the admin console shows of each registered sweep (never run yet: no row). */
export async function sweepStates(deps: Pick<Deps, 'db' | 'clock'>, sweeps: readonly Sweep[] = SWEEPS) {
  const rows = new Map(
    (
      await listSweeps(
        deps.db,
        sweeps.map((s) => s.name),
      )
    ).map((r) => [r.name, r]),
  );
  const now = deps.clock.now();
  return sweeps.map((s) => {
    const r: SweepRow | undefined = rows.get(s.name);
    return {
      name: s.name,
      everySeconds: s.everySeconds,
      nextRunAt: r?.nextRunAt ?? null,
      lastStartedAt: r?.lastStartedAt ?? null,
      lastFinishedAt: r?.lastFinishedAt ?? null,
      lastHandled: r?.lastHandled ?? null,
      lastError: r?.lastError ?? null,
      lastErrorAt: r?.lastErrorAt ?? null,
      failures: r?.failures ?? 0,
      runs: r?.runs ?? 0,
      running: !!r?.runningUntil && r.runningUntil > now,
      due: !r || r.nextRunAt <= now,
    };
  });
}
