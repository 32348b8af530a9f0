/**
 * The periodic work of every domain (reminders, deadlines, expiries, digests), as sweeps: each finds
 * what is due by `deps.clock` and acts on it once; a conditional update in the same transaction as
 * its effect makes it once-only across instances and restarts. The scheduler runs each every
 * `everySeconds`, one instance at a time. A domain appends its sweeps here.
 */
import type { Deps } from '../../context';
import { expireDueOffers } from '../jobs/expiry';

export interface Sweep {
  /** Stable and unique: the scheduler's row for it is keyed by this name. */
  name: string;
  everySeconds: number;
  /** Acts on what is due; resolves with how many things it handled. */
  run(deps: Deps): Promise<number>;
}

export const SWEEPS: Sweep[] = [{ name: 'job-offer-expiry', everySeconds: 30, run: expireDueOffers }];
