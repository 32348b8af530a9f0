// Summarizes a V8 .cpuprofile (node --cpu-prof): self time by package and by function, so a
// result that misses its target can say what the server spent its time on.
import { readFileSync } from 'node:fs';

function owner(url) {
  if (!url) return null;
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node (core)';
  if (/server\.js$/.test(url)) return 'app (server.js bundle)';
  return url.split('/').slice(-2).join('/');
}

export function summarizeProfile(file, top = 15) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = p.timeDeltas ?? [];
  for (let i = 0; i < p.samples.length; i++) {
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (dt[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const pkgs = new Map();
  const fns = new Map();
  for (const [id, us] of self) {
    const cf = byId.get(id).callFrame;
    const special = /^\((.*)\)$/.test(cf.functionName) && !cf.url;
    const pkg = special ? cf.functionName : (owner(cf.url) ?? '(native)');
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
    const fn = special ? cf.functionName : `${cf.functionName || '(anonymous)'} ${pkg}:${cf.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const rank = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), pct: Math.round((1000 * us) / total) / 10 }));
  return { totalMs: Math.round(total / 1000), byPackage: rank(pkgs), byFunction: rank(fns) };
}
