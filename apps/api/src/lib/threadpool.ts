import { readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setPriority } from 'node:os';

/** libuv's pool threads as Linux names them. */
const POOL_THREAD = 'libuv-worker';

/**
 * Lowers the scheduling priority (niceness) of libuv's thread pool, where argon2 hashes. When
 * the CPU is contended, the event loop, which answers everything else (dashboards polling),
 * then runs first, and a burst of sign-ins waits instead of delaying it; on an idle core the
 * pool runs at full speed as before. Linux only (elsewhere nothing happens). Returns how many
 * threads were lowered. See docs/decisions/0505-event-loop-before-hashing.md.
 */
export async function lowerThreadPoolPriority(niceness = 10): Promise<number> {
  if (process.platform !== 'linux') return 0;
  // libuv starts the whole pool on its first piece of work.
  await stat('.');
  let lowered = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== POOL_THREAD) continue;
      setPriority(Number(tid), niceness);
      lowered++;
    } catch {
      // The thread ended, or the system refuses: the pool keeps its priority.
    }
  }
  return lowered;
}
