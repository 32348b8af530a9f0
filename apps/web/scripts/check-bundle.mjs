#!/usr/bin/env node
// Fails (exit 1) when a page's initial download exceeds its budget
// (docs/decisions/0502-landing-js-budget.md, 0503-prerendered-landing.md, 1142-bundle-budgets-by-surface.md):
// - `/` is landing.html, the prerendered landing: its JavaScript (module scripts, modulepreloads
//   and, recursively, their static imports) and its CSS (inline <style> and linked stylesheets).
// - Every other page is index.html, the app's shell: its JavaScript, counted the same way.
// - Each surface (site, portal, console; ROUTE_SURFACES) has a budget for its heaviest page beyond
//   the shell: the chunks its route and the routes around it (layouts, root) split into, and the
//   app's frame (frame.tsx: Mantine's provider, TanStack Query), with their static imports, less what
//   the shell already loaded (from Vite's manifest, dist/.vite). A new console section weighs on the
//   console's budget, never on the shell (decisions 1142, 1310).
// Lazy chunks (dynamic import()) and files the landing only prefetches at idle are not counted:
// they load when needed. The landing's figures are the top-level fields (bench reads them).
// Over budget it fails in CI (CI set) or with --strict; elsewhere it warns, so a local
// `pnpm go` still starts the product.
// Usage: node scripts/check-bundle.mjs [--json] [--strict] [distDir]
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The budgets, KB of gzip. One line per thing measured: add a line for a new page or surface
 * (and its check below, or a ROUTE_SURFACES entry for a new surface's routes).
 *   landingJs, landingCss  the prerendered landing (`/`)
 *   appJs                  the app shell (index.html's eager JS), every page but the landing's
 *   site, portal, console  the heaviest page of that surface beyond the shell (its route chunks and
 *                          the app's frame, frame.tsx)
 */
export const BUDGET_KB = {
  landingJs: 15,
  landingCss: 15,
  // Measured 1.7.98 (decision 1310): 98.9, React DOM and the router with the route definitions. Mantine's
  // provider and TanStack Query load beside each page's chunks (frame.tsx), on the surfaces' lines.
  appJs: 100,
  // Measured 1.7.98 (decision 1310): site 138.9 (register), portal 154.4 (dashboard), console 218.0 (payouts),
  // each with the frame (Mantine's core, Query: ~40 KB); ~8-10 % room. The shell and a page together may
  // weigh less than under decision 1142's budgets (120 + 135, 120 + 150, 120 + 215).
  site: 150,
  portal: 170,
  console: 235,
};

/** Which surface a route file (relative to src/routes/) serves: the first match wins. */
export const ROUTE_SURFACES = [
  ['console', /^admin[./]/],
  ['portal', /^dashboard\./],
  ['site', /./],
];

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

/** The app's frame (frame.tsx), loaded by every page of index.html beside its own chunks. */
const FRAME = 'src/frame.tsx';

/**
 * Every route's page beyond the shell, from Vite's manifest: the chunks its route file split into
 * (`routes/x.tsx`, `?tsr-split=component`, ...) and those of the routes it sits in (its layouts up to
 * __root), each with its static imports, less the shell's files. By surface: its heaviest page.
 */
function measureRoutes(shellFiles) {
  const path = join(dist, '.vite/manifest.json');
  if (!existsSync(path)) fail(`no .vite/manifest.json in ${dist} (vite.config.ts build.manifest)`);
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  const byRoute = new Map();
  for (const key of Object.keys(manifest)) {
    const m = /^src\/routes\/(.+\.tsx)(\?.*)?$/.exec(key);
    if (!m) continue;
    if (!byRoute.has(m[1])) byRoute.set(m[1], []);
    byRoute.get(m[1]).push(key);
  }
  const closure = (keys, into) => {
    for (const key of keys) {
      const entry = manifest[key];
      if (!entry || into.has(entry.file)) continue;
      into.add(entry.file);
      closure(entry.imports ?? [], into);
    }
    return into;
  };
  // routes/admin/_console/jobs.tsx sits in admin/_console.tsx, admin.tsx (when there), __root.tsx.
  const around = (route) => {
    const parts = route.replace(/\.tsx$/, '').split('/');
    const up = ['__root.tsx'];
    for (let i = 1; i < parts.length; i++) up.push(`${parts.slice(0, i).join('/')}.tsx`);
    return up.filter((r) => byRoute.has(r) && r !== route);
  };
  // The frame every page renders inside (Mantine's provider, TanStack Query), imported by boot.tsx
  // beside the page's chunks (decision 1310): on every page's line, not the shell's.
  if (!manifest[FRAME]) fail(`no ${FRAME} in the manifest (boot.tsx imports it)`);
  const pages = [];
  for (const route of byRoute.keys()) {
    if (route === '__root.tsx') continue;
    const files = closure(
      [FRAME, ...around(route), route].flatMap((r) => byRoute.get(r) ?? [r]),
      new Set(),
    );
    const own = [...files].filter((f) => !shellFiles.has(f)).map((f) => size(f, readFileSync(join(dist, f))));
    const surface = ROUTE_SURFACES.find(([, re]) => re.test(route))[0];
    pages.push({ route, surface, gzipKB: sum(own), files: own });
  }
  return pages.sort((a, b) => b.gzipKB - a.gzipKB);
}

const landing = measure('landing.html');
const app = measure('index.html');
const routes = measureRoutes(new Set(app.files.map((f) => f.file)));
const heaviest = (surface) => routes.find((p) => p.surface === surface) ?? { route: '(none)', gzipKB: 0 };
const checks = [
  { what: 'landing initial JS', kb: landing.gzipKB, budget: BUDGET_KB.landingJs },
  { what: 'landing initial CSS', kb: landing.cssGzipKB, budget: BUDGET_KB.landingCss },
  { what: 'app shell initial JS (other pages)', kb: app.gzipKB, budget: BUDGET_KB.appJs },
  ...['site', 'portal', 'console'].map((surface) => {
    const page = heaviest(surface);
    return {
      what: `${surface} heaviest page beyond the shell (${page.route})`,
      kb: page.gzipKB,
      budget: BUDGET_KB[surface],
    };
  }),
  ...lightChecks(),
].map((c) => ({ ...c, ok: c.kb <= c.budget }));
const ok = checks.every((c) => c.ok);
const surfaces = routes.map(({ route, surface, gzipKB }) => ({ route, surface, gzipKB }));
const report = {
  ok,
  budgetKB: BUDGET_KB.landingJs,
  budgetsKB: BUDGET_KB,
  ...landing,
  checks: checks.map(({ page, ...c }) => c),
  app,
  routes: surfaces,
};

if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  for (const p of [landing, app, ...checks.flatMap((c) => (c.page ? [c.page] : []))]) {
    process.stdout.write(`${p.page} (${p.html.gzipKB.toFixed(1)} KB gzip itself):\n`);
    for (const f of p.files)
      process.stdout.write(`  ${f.file.padEnd(44)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip\n`);
    for (const f of p.css)
      process.stdout.write(`  ${f.file.padEnd(44)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip (css)\n`);
  }
  process.stdout.write('route pages beyond the shell (gzip KB):\n');
  for (const p of routes)
    process.stdout.write(`  ${p.surface.padEnd(8)} ${p.route.padEnd(40)} ${p.gzipKB.toFixed(1).padStart(7)} KB gzip\n`);
  for (const c of checks) {
    process.stdout.write(
      `${c.what}: ${c.kb.toFixed(1)} KB gzip (budget ${c.budget} KB) ${c.ok ? 'ok' : 'OVER BUDGET'}\n`,
    );
  }
  if (!ok && !strict) process.stdout.write('check-bundle: over budget (a failure in CI, where CI is set)\n');
}
process.exit(ok || !strict ? 0 : 1);
