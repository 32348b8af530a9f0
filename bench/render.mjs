// Writes bench/results.md and bench/curve.svg again from bench/results.json (the same figures; no
// measurement). `--check`: writes nothing, exits 1 when either file differs from what it would write.
//   node bench/render.mjs [DIR] [--check]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReport } from './lib/report.mjs';
import { curveSvg } from './stages/curve.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const dir = args.find((a) => !a.startsWith('--')) ?? dirname(fileURLToPath(import.meta.url));
const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
const files = { 'results.md': writeReport(results) };
if (results.curve?.endpoints) files['curve.svg'] = curveSvg(results.curve);

let stale = 0;
for (const [name, text] of Object.entries(files)) {
  const file = join(dir, name);
  if (!check) writeFileSync(file, text);
  else if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    console.error(`${file} is not what results.json renders to: run node bench/render.mjs`);
    stale++;
  }
}
process.exit(stale ? 1 : 0);
