// Every SQL statement lives in packages/db (docs/architecture.md): fails when app code builds one.
// Tests may build their own fixtures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const STATEMENT = /\b(selectFrom|insertInto|updateTable|deleteFrom|mergeInto)\s*\(|\bsql\s*`|\bsql\.raw\s*\(/;
const roots = ['apps/api/src', 'apps/web/src'];
const found = [];

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (STATEMENT.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
        });
    }
  }
}

for (const root of roots) walk(root);
if (found.length > 0) {
  console.error(`SQL outside packages/db (move it into a query module there):\n${found.join('\n')}`);
  process.exit(1);
}
