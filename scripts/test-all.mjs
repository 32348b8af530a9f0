#!/usr/bin/env node
// `pnpm test:all`: every check CI runs, in stages. The phases of a stage run at the same time (each
// line of their output prefixed with the phase's name); a phase starts when every phase of the
// stages before it has passed, or, when it names what it `needs`, when those have (issue 46). At
// the end it prints how long each phase took, so a slow phase is seen where it starts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `needs`: the phases that must pass first; `after`: the phases that must have ended first, passed
// or not (so one failure does not hide another's).
/** @type {{ name: string, command: string, needs?: string[], after?: string[], nice?: boolean }[][]} */
const STAGES = [
  // Everything starts at once but the browser tests, which run the production build. The phases
  // measured on a quiet machine (stop 52's run) were mostly waiting, not computing: security took
  // 13m53s of wall time for 5m51s of CPU, the browser 16m00s for 8m37s, so run one after another
  // they left a core idle for most of the run. Side by side they fill both (decision 1330). The
  // suite's limits catch hangs, not a busy machine (decision 1200), which is what lets them share.
  [
    { name: 'lint', command: 'pnpm -s lint' },
    { name: 'typecheck', command: 'pnpm -s typecheck' },
    { name: 'build', command: 'pnpm -s build' },
    // The browser tests come first for the CPU: they are the critical path and the suite that waits
    // on a page's answer. Beside the other two at a load average near 20 on two cores, a page took
    // 18 s to take a click and CI failed five specs (stop 53). The security suite runs beside them at
    // `nice` 10, on what they leave; it passed so, in 23 minutes. The integration suite at `nice` 10
    // beside them got 3 CPU-minutes in 23 and two of its tests ran out of their limits (a pool's
    // 5 s wait for a connection, a 300 s property test on PGlite): it runs after both, with the
    // machine to itself. Started once the browser tests alone had passed, it starved the rest of
    // the security suite at `nice` 10 (8 CPU-minutes in 29) and that failed (stop 54; decision 1330).
    { name: 'unit+integration', command: 'pnpm -s test:both', needs: ['browser'], after: ['security'] },
    // After the type check's burst (tsc takes both cores for about a minute): the security suite
    // starts real servers on a timer of their own.
    { name: 'security', command: 'pnpm -s test:security', needs: ['lint', 'typecheck'], nice: true },
    { name: 'browser', command: 'pnpm -s test:e2e', needs: ['build'] },
  ],
];

const only = process.argv.slice(2);
const started = Date.now();
/** @type {{ name: string, startS: number, seconds: number, cpuS: number | null, code: number | null }[]} */
const results = [];

// Each phase's CPU time (user + system, of every process it waited for: turbo, vitest's workers,
// Chromium, the e2e server), from GNU time where there is one. Wall time grows with whatever else
// the machine runs; CPU time mostly does not, so it is what tells a phase that got slower (issue 46).
// PostgreSQL's own processes are not children of a phase and are not counted.
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const shellQuote = (/** @type {string} */ s) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * How busy the machine's cores are over `ms` before the suite starts (0 to 1; null without
 * /proc/stat): what other processes take, since nothing of the suite runs yet.
 */
async function busyShare(ms) {
  const sample = () => {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: (cpu[3] ?? 0) + (cpu[4] ?? 0), total: cpu.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = sample();
    await new Promise((r) => setTimeout(r, ms));
    const b = sample();
    return b.total > a.total ? 1 - (b.idle - a.idle) / (b.total - a.total) : null;
  } catch {
    return null;
  }
}

// A lower priority (nice 10) where `nice` exists; PostgreSQL's processes keep theirs. Only on a
// machine the suite has to itself: `nice` shares the cores between the suite's own phases, but when
// other processes already keep them busy it hands those the phase's share. Under `stress-ng --cpu 2`
// the security suite at nice 10 got 15 s of CPU in 10m23s and its servers ran out of their limits
// (issue 46; decision 1330).
const othersBusy = await busyShare(2_000);
const busy = othersBusy !== null && othersBusy > 0.6;
const NICE = existsSync('/usr/bin/nice') && !busy ? '/usr/bin/nice -n 10 ' : '';
// On a busy machine the browser and security suites' limits stretch threefold (apps/web/e2e/support/time.ts,
// apps/api/test/security/time.ts).
if (busy) process.env.TEST_TIME_SCALE ??= '3';
if (othersBusy !== null)
  process.stdout.write(
    `The cores were ${Math.round(othersBusy * 100)}% busy before the suite: ${busy ? `every phase at normal priority, the browser and security suites' limits x${process.env.TEST_TIME_SCALE}` : 'the security suite runs at nice 10'}\n`,
  );

/** @param {{ name: string, command: string, nice?: boolean }} phase @param {boolean} prefix */
function run(phase, prefix) {
  const t0 = Date.now();
  const cpuFile = join(tmpdir(), `test-all-${process.pid}-${phase.name.replace(/\W/g, '_')}.cpu`);
  const shell = `${phase.nice ? NICE : ''}sh -c ${shellQuote(phase.command)}`;
  const command = GNU_TIME ? `${GNU_TIME} -q -f '%U %S' -o ${shellQuote(cpuFile)} ${shell}` : shell;
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (prefix) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        from.setEncoding('utf8');
        from.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) {
            to.write(`[${phase.name}] ${line}\n`);
            keepIfFailure(phase.name, line);
          }
        });
        from.on('end', () => rest && to.write(`[${phase.name}] ${rest}\n`));
      }
    }
    child.on('close', (code) => {
      let cpuS = null;
      try {
        const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
        if (Number.isFinite(user) && Number.isFinite(sys)) cpuS = user + sys;
        rmSync(cpuFile, { force: true });
      } catch {
        // no GNU time, or the phase was stopped before it wrote
      }
      const r = { name: phase.name, startS: (t0 - started) / 1000, seconds: (Date.now() - t0) / 1000, cpuS, code };
      results.push(r);
      resolve(r);
    });
  });
}

/**
 * The lines that name a failed or flaky test, by phase, printed again under the timings: CI shows
 * only the output's tail, and a failure early in a long phase scrolled out of it (stop 54).
 * @type {Map<string, string[]>}
 */
const failures = new Map();
const FAILURE_LINE =
  /(✘|×|✗|\d+ failed\)|^\s*FAIL\s|^\s*\d+ (failed|flaky|interrupted)\b|^\s+\[(chromium|clock)\] ›|^\s*Error: )/;
function keepIfFailure(/** @type {string} */ name, /** @type {string} */ line) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes of the reporters
  const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
  if (!FAILURE_LINE.test(plain)) return;
  const kept = failures.get(name) ?? [];
  if (kept.length < 40) kept.push(plain.trimEnd().slice(0, 240));
  failures.set(name, kept);
}

function report() {
  const fmt = (/** @type {number} */ s) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  const w = Math.max(...results.map((r) => r.name.length), 5);
  process.stdout.write('\nPhase timings (test:all)\n');
  for (const r of results) {
    const status = r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`;
    const cpu = r.cpuS === null ? '' : `  cpu ${fmt(r.cpuS).padStart(6)}`;
    process.stdout.write(
      `  ${r.name.padEnd(w)}  starts at ${fmt(r.startS).padStart(6)}  took ${fmt(r.seconds).padStart(6)}${cpu}  ${status}\n`,
    );
  }
  process.stdout.write(`  ${'total'.padEnd(w)}  ${fmt((Date.now() - started) / 1000)}\n`);
  for (const [name, lines] of failures) {
    process.stdout.write(`\nFailed or flaky in ${name} (the first ${lines.length} such lines)\n`);
    for (const l of lines) process.stdout.write(`  ${l}\n`);
  }
}

// Each phase waits for what it needs (by default every phase of the stages before it) among those
// run; one that failed stops what needs it, and the phases already running finish.
const all = STAGES.flatMap((stage, i) =>
  stage.map((p) => ({ ...p, needs: p.needs ?? STAGES.slice(0, i).flatMap((s) => s.map((q) => q.name)) })),
);
const phases = only.length ? all.filter((p) => only.includes(p.name)) : all;
/** @type {Map<string, Promise<{ code: number | null }>>} */
const runs = new Map();
/**
 * A phase's run, made once, after the runs of the phases it needs (passed) and comes after (ended),
 * wherever those are listed (read in
 * list order, a phase listed after the one that needed it was not waited for: stop 53's fourth clone
 * ran the integration suite beside the browser tests it was to follow).
 * @param {(typeof phases)[number]} p
 * @returns {Promise<{ code: number | null }>}
 */
function start(p) {
  let r = runs.get(p.name);
  if (!r) {
    const runsOf = (/** @type {string[]} */ names) =>
      names.flatMap((n) => {
        const q = phases.find((x) => x.name === n);
        return q ? [start(q)] : [];
      });
    r = Promise.all([Promise.all(runsOf(p.needs)), Promise.all(runsOf(p.after ?? []))]).then(([done]) => {
      if (done.every((d) => d.code === 0)) return run(p, phases.length > 1);
      process.stdout.write(`[${p.name}] not run: a phase it needs failed\n`);
      return { code: null };
    });
    runs.set(p.name, r);
  }
  return r;
}
for (const p of phases) start(p);
const failed = (await Promise.all(runs.values())).some((r) => r.code !== 0);
report();
process.exit(failed ? 1 : 0);
