#!/usr/bin/env node
// Fails (exit 1) when a page's initial download exceeds its budget
// (docs/decisions/0502-landing-js-budget.md, 0503-prerendered-landing.md):
// - `/` is landing.html, the prerendered landing: its JavaScript (module scripts, modulepreloads
//   and, recursively, their static imports) and its CSS (inline <style> and linked stylesheets).
// - Every other page is index.html, the app's shell: its JavaScript, counted the same way.
// Lazy chunks (dynamic import()) and files the landing only prefetches at idle are not counted:
// they load when needed. The landing's figures are the top-level fields (bench reads them).
// Over budget it fails in CI (CI set) or with --strict; elsewhere it warns, so a local
// `pnpm go` still starts the product.
// Usage: node scripts/check-bundle.mjs [--json] [--strict] [distDir]
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export const BUDGET_KB = { landingJs: 15, landingCss: 15, appJs: 120 };

const args = process.argv.slice(2);
const json = args.includes('--json');
const strict = args.includes('--strict') || Boolean(process.env.CI);
const dist = resolve(args.find((a) => !a.startsWith('--')) ?? 'dist');

function fail(message) {
  if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: message })}\n`);
  else process.stderr.write(`check-bundle: ${message}\n`);
  process.exit(1);
}

const kb = (b) => b / 1024;
const size = (file, buf) => ({ file, rawKB: kb(buf.length), gzipKB: kb(gzipSync(buf, { level: 9 }).length) });
const sum = (files) => files.reduce((a, f) => a + f.gzipKB, 0);

// Static imports in Vite's output: `import{a as b}from"./x.js"` or `import"./x.js"` (not `import(`).
const STATIC_IMPORT = /(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

/** What a page downloads before anything is clicked: its eager scripts with their static imports, and its CSS. */
function measure(page) {
  const path = join(dist, page);
  if (!existsSync(path)) fail(`no ${page} in ${dist} (run vite build first)`);
  const html = readFileSync(path, 'utf8');
  const eager = new Set();
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) eager.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) eager.add(m[1]);
  if (eager.size === 0) fail(`${page} loads no module script`);

  const seen = new Map();
  const queue = [...eager].map((u) => u.replace(/^\//, ''));
  while (queue.length) {
    const rel = queue.shift();
    if (seen.has(rel)) continue;
    const file = join(dist, rel);
    if (!existsSync(file)) fail(`${page} refers to ${rel}, which is not in ${dist}`);
    const code = readFileSync(file);
    seen.set(rel, size(rel, code));
    for (const m of code.toString('utf8').matchAll(STATIC_IMPORT)) {
      const spec = m[1];
      if (/^https?:/.test(spec)) continue;
      queue.push(spec.startsWith('/') ? spec.slice(1) : posix.join(posix.dirname(rel), spec));
    }
  }
  const css = [
    ...[...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) =>
      size(m[1], readFileSync(join(dist, m[1].replace(/^\//, '')))),
    ),
    ...[...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((m, i) =>
      size(`${page} <style> #${i + 1}`, Buffer.from(m[1])),
    ),
  ];
  const files = [...seen.values()];
  return { page, gzipKB: sum(files), files, cssGzipKB: sum(css), css, html: size(page, Buffer.from(html)) };
}

/**
 * The light pages (docs/decisions/1160-light-homeowner-pages.md): prerendered like the landing, each
 * usable with its own script before the app boots. Each page's initial JavaScript, measured as the
 * landing's, against its budget.
 */
export const LIGHT_PAGES = [
  { page: 'quote.html', path: '/quote', jsKB: 30 },
  { page: 'installation-status.html', path: '/quote/<token>', jsKB: 30 },
  { page: 'application-status.html', path: '/application/<token>', jsKB: 30 },
];
function lightChecks() {
  return LIGHT_PAGES.map(({ page, path, jsKB }) => {
    const m = measure(page);
    return { what: `${path} initial JS (light page)`, kb: m.gzipKB, budget: jsKB, cssKB: m.cssGzipKB, page: m };
  });
}

const landing = measure('landing.html');
const app = measure('index.html');
const checks = [
  { what: 'landing initial JS', kb: landing.gzipKB, budget: BUDGET_KB.landingJs },
  { what: 'landing initial CSS', kb: landing.cssGzipKB, budget: BUDGET_KB.landingCss },
  { what: 'app shell initial JS (other pages)', kb: app.gzipKB, budget: BUDGET_KB.appJs },
  ...lightChecks(),
].map((c) => ({ ...c, ok: c.kb <= c.budget }));
const ok = checks.every((c) => c.ok);
const report = { ok, budgetKB: BUDGET_KB.landingJs, ...landing, checks: checks.map(({ page, ...c }) => c), app };

if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  for (const p of [landing, app, ...checks.flatMap((c) => (c.page ? [c.page] : []))]) {
    process.stdout.write(`${p.page} (${p.html.gzipKB.toFixed(1)} KB gzip itself):\n`);
    for (const f of p.files)
      process.stdout.write(`  ${f.file.padEnd(44)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip\n`);
    for (const f of p.css)
      process.stdout.write(`  ${f.file.padEnd(44)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip (css)\n`);
  }
  for (const c of checks) {
    process.stdout.write(
      `${c.what}: ${c.kb.toFixed(1)} KB gzip (budget ${c.budget} KB) ${c.ok ? 'ok' : 'OVER BUDGET'}\n`,
    );
  }
  if (!ok && !strict) process.stdout.write('check-bundle: over budget (a failure in CI, where CI is set)\n');
}
process.exit(ok || !strict ? 0 : 1);
