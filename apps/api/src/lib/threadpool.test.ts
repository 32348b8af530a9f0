import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lowerThreadPoolPriority } from './threadpool';

/** Each thread's name and niceness, from /proc (field 19 of stat, counted after the name). */
function threads() {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      tid: Number(tid),
      name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
      nice: Number(fields[16]),
    };
  });
}

describe.runIf(process.platform === 'linux')('lowerThreadPoolPriority', () => {
  it("lowers libuv's pool threads and leaves the event loop's thread alone", async () => {
    // The process's own niceness, whatever it started with (test:all runs this suite at nice 10).
    const mainBefore = threads().find((t) => t.tid === process.pid)?.nice;
    const lowered = await lowerThreadPoolPriority(10);
    const all = threads();
    const pool = all.filter((t) => t.name === 'libuv-worker');
    expect(lowered).toBe(pool.length);
    expect(pool.length).toBeGreaterThan(0);
    for (const t of pool) expect(t.nice).toBe(10);
    expect(all.find((t) => t.tid === process.pid)?.nice).toBe(mainBefore);
  });
});
