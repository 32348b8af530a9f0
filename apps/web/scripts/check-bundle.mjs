#!/usr/bin/env node
// Fails (exit 1) when the landing page's initial JavaScript exceeds its budget: the scripts
// index.html loads eagerly (module entry + modulepreloads) and, recursively, their static
// imports. Lazy route chunks (dynamic import()) are not counted: they load when needed.
// Over budget it fails in CI (CI set) or with --strict; elsewhere it warns, so a local
// `pnpm go` still starts the product (docs/decisions/0502-landing-js-budget.md).
// Usage: node scripts/check-bundle.mjs [--json] [--strict] [distDir]
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export const BUDGET_KB = 120;

const args = process.argv.slice(2);
const json = args.includes('--json');
const strict = args.includes('--strict') || Boolean(process.env.CI);
const dist = resolve(args.find((a) => !a.startsWith('--')) ?? 'dist');

function fail(message) {
  if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: message })}\n`);
  else process.stderr.write(`check-bundle: ${message}\n`);
  process.exit(1);
}

if (!existsSync(join(dist, 'index.html'))) fail(`no index.html in ${dist} (run vite build first)`);
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const eager = new Set();
for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) eager.add(m[1]);
for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) eager.add(m[1]);
const css = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]);
if (eager.size === 0) fail('index.html loads no module script');

// Static imports in Vite's output: `import{a as b}from"./x.js"` or `import"./x.js"` (not `import(`).
const STATIC_IMPORT = /(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

const seen = new Map();
const queue = [...eager].map((u) => u.replace(/^\//, ''));
while (queue.length) {
  const rel = queue.shift();
  if (seen.has(rel)) continue;
  const file = join(dist, rel);
  if (!existsSync(file)) fail(`index.html refers to ${rel}, which is not in ${dist}`);
  const code = readFileSync(file);
  seen.set(rel, { raw: code.length, gzip: gzipSync(code, { level: 9 }).length });
  for (const m of code.toString('utf8').matchAll(STATIC_IMPORT)) {
    const spec = m[1];
    if (/^https?:/.test(spec)) continue;
    queue.push(spec.startsWith('/') ? spec.slice(1) : posix.join(posix.dirname(rel), spec));
  }
}

const kb = (b) => b / 1024;
const files = [...seen].map(([file, s]) => ({ file, rawKB: kb(s.raw), gzipKB: kb(s.gzip) }));
const gzipKB = files.reduce((a, f) => a + f.gzipKB, 0);
const cssFiles = css.map((u) => {
  const code = readFileSync(join(dist, u.replace(/^\//, '')));
  return { file: u, rawKB: kb(code.length), gzipKB: kb(gzipSync(code, { level: 9 }).length) };
});
const ok = gzipKB <= BUDGET_KB;
const report = { ok, budgetKB: BUDGET_KB, gzipKB, files, css: cssFiles };

if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  for (const f of files) process.stdout.write(`  ${f.file.padEnd(44)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip\n`);
  for (const f of cssFiles)
    process.stdout.write(`  ${f.file.padEnd(44)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip (css)\n`);
  process.stdout.write(
    `landing initial JS: ${gzipKB.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB) ${ok ? 'ok' : 'OVER BUDGET'}\n`,
  );
  if (!ok && !strict) process.stdout.write('check-bundle: over budget (a failure in CI, where CI is set)\n');
}
process.exit(ok || !strict ? 0 : 1);
