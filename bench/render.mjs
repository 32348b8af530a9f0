// Re-renders bench/results.md from bench/results.json (the same numbers; no measurement).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatWithBiome, writeReport } from './lib/report.mjs';

const dir = process.argv[2] ?? dirname(fileURLToPath(import.meta.url));
const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
const findings = join(dirname(fileURLToPath(import.meta.url)), 'findings.md');
writeFileSync(
  join(dir, 'results.md'),
  writeReport(results, existsSync(findings) ? readFileSync(findings, 'utf8') : ''),
);
formatWithBiome([join(dir, 'results.json'), join(dir, 'results.md')]);
