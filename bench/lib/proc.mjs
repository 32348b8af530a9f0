import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

export const hasTaskset = spawnSync('taskset', ['-V']).status === 0;
// --all: the harness re-runs itself pinned to one core, where plain nproc answers 1.
export const cpuCount = Number(spawnSync('nproc', ['--all']).stdout?.toString().trim() || 1);

/** Runs a command pinned to a core list when taskset exists and the machine has more than one core. */
export function pinned(cores, cmd, args) {
  if (hasTaskset && cpuCount > 1 && cores) return ['taskset', ['-c', cores, cmd, ...args]];
  return [cmd, args];
}

export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/**
 * Starts a node process (pinned), collects its output, resolves once GET url answers 200.
 * `logFile`: stdout and stderr go to that file instead (a server that logs every request writes
 * to a file, as in production, not through a pipe this process would have to drain).
 * `dropEnv`: variables of this process not to pass on (LOG_LEVEL unset = the server's default).
 */
export async function startNode({ script, env, cores, readyUrl, cwd, name, nodeArgs = [], logFile, dropEnv = [] }) {
  const [cmd, args] = pinned(cores, process.execPath, [...nodeArgs, script]);
  const fullEnv = { ...process.env, ...env };
  for (const k of dropEnv) delete fullEnv[k];
  const fd = logFile ? openSync(logFile, 'a') : null;
  const child = spawn(cmd, args, { env: fullEnv, cwd, stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'] });
  if (fd !== null) closeSync(fd);
  let out = '';
  const keep = (d) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const tail = () => {
    if (!logFile) return out;
    try {
      return readFileSync(logFile, 'utf8').slice(-20_000);
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${tail()}`);
    try {
      const r = await fetch(readyUrl);
      if (r.ok) break;
    } catch {}
    await sleep(200);
  }
  if (Date.now() >= deadline) {
    child.kill('SIGKILL');
    throw new Error(`${name} did not become ready:\n${tail()}`);
  }
  return {
    child,
    // taskset execs the command, so the pid is node's own.
    pid: child.pid,
    output: tail,
    async stop() {
      if (child.exitCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(t);
    },
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process in bytes, from /proc/<pid>/status (VmRSS). */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns baseline, peak and samples. */
export function sampleRss(pid, everyMs = 20) {
  const base = rssOf(pid);
  let peak = base ?? 0;
  let samples = 0;
  const t = setInterval(() => {
    const v = rssOf(pid);
    if (v !== null) {
      samples++;
      if (v > peak) peak = v;
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(t);
      return { baseBytes: base, peakBytes: peak, growthBytes: base === null ? null : peak - base, samples };
    },
  };
}

export function machine() {
  const read = (f) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '';
    }
  };
  const model = /model name\s*:\s*(.+)/.exec(read('/proc/cpuinfo'))?.[1]?.trim() ?? 'unknown';
  let freeH = '';
  try {
    freeH = sh('free', ['-h']).trim();
  } catch {}
  const pgVersion = '';
  return { nproc: cpuCount, cpuModel: model, freeH, node: process.version, taskset: hasTaskset, pgVersion };
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return null;
  }
}

function coreTimes() {
  const out = {};
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^(cpu\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const v = m[2].split(/\s+/).map(Number);
    const idle = v[3] + v[4];
    out[m[1]] = { idle, total: v.reduce((a, b) => a + b, 0) };
  }
  return out;
}

/** CPU seconds of every PostgreSQL backend and helper (all databases: the machine is shared). */
function postgresSeconds() {
  let sum = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') continue;
      sum += cpuSecondsOf(d) ?? 0;
    } catch {}
  }
  return sum;
}

/** Busy share of each core, of one process, of PostgreSQL and of this load generator between start() and stop(). */
export function cpuMeter(pid) {
  const c0 = coreTimes();
  const p0 = pid ? cpuSecondsOf(pid) : null;
  const pg0 = postgresSeconds();
  const me0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    stop() {
      const c1 = coreTimes();
      const secs = (performance.now() - t0) / 1000;
      const cores = {};
      for (const k of Object.keys(c1)) {
        const dt = c1[k].total - c0[k].total;
        cores[k] = dt > 0 ? Math.round((100 * (dt - (c1[k].idle - c0[k].idle))) / dt) : null;
      }
      const p1 = pid ? cpuSecondsOf(pid) : null;
      const me = process.cpuUsage(me0);
      return {
        coresBusyPct: cores,
        processCpuPct: p0 !== null && p1 !== null ? Math.round((100 * (p1 - p0)) / secs) : null,
        processCpuSeconds: p0 !== null && p1 !== null ? p1 - p0 : null,
        // Live processes only: a backend that exited during the window takes its seconds with it,
        // so this is a lower bound, and never below 0 (a run with connections closing gave -2).
        postgresCpuPct: Math.max(0, Math.round((100 * (postgresSeconds() - pg0)) / secs)),
        loadGeneratorCpuPct: Math.round((me.user + me.system) / 1e4 / secs),
      };
    },
  };
}
