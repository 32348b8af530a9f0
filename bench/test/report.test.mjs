// results.md and curve.svg are generated: the committed files are what results.json renders to,
// and the page says met or missed as the figures do.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { allTargets, writeReport } from '../lib/report.mjs';
import { curveSvg } from '../stages/curve.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (name) => readFileSync(join(dir, name), 'utf8');
const results = () => JSON.parse(read('results.json'));

test('the committed results.md is what results.json renders to (node bench/render.mjs)', () => {
  assert.equal(read('results.md'), writeReport(results()));
});

test('the committed curve.svg is what results.json renders to', () => {
  assert.equal(read('curve.svg'), curveSvg(results().curve));
});

test('the page stays one page and names every target', () => {
  const r = results();
  const page = writeReport(r);
  const targets = allTargets(r);
  // A page of tables, plus the list of what was missed (one line each) at its top. 142: the light
  // pages' JS and the surfaces' budgets became rows of their own (issue 48).
  const missed = Number(/^## Targets: \d+ of \d+ met, (\d+) missed/m.exec(page)?.[1] ?? NaN);
  const lines = page.split('\n').length;
  assert.ok(lines <= 142 + missed, `results.md has ${lines} lines for ${missed} missed targets`);
  assert.ok(targets.length > 80);
  for (const t of targets) assert.ok(page.includes(t.family ?? t.target), `${t.target} is not on the page`);
});

test('a figure that crosses its target moves it between met and missed', () => {
  const r = results();
  // Signup below B1 first, whatever the committed run measured.
  r.peers.signup.app.reqPerSec = r.peers.signup.b1.reqPerSec * 0.9;
  const before = writeReport(r);
  const headline = (page) => /^## Targets: (\d+) of (\d+) met, (\d+) missed/m.exec(page).slice(1).map(Number);
  const [met, total, missed] = headline(before);
  assert.ok(before.includes('signup (unique emails): app >= B1: '));

  // Signup above B1, and the admin page's p95 at 1,000,000 dealers three times its 100,000 figure.
  r.peers.signup.app.reqPerSec = r.peers.signup.b1.reqPerSec * 1.1;
  const page = r.curve.endpoints['admin-page'].sizes;
  page[1_000_000].single.p95 = page[100_000].single.p95 * 3;
  const after = writeReport(r);
  assert.deepEqual(headline(after), [met, total, missed]);
  assert.ok(!after.includes('- `peers` signup (unique emails): app >= B1:'));
  assert.match(after, /\| `peers` \| signup \(unique emails\): app >= B1 \| met \|/);
  assert.match(
    after,
    /- `curve` admin page \(search \+ filter \+ sort\): p95 \(one client\) at most doubles .*\(3\.00x\)/,
  );
  assert.match(after, /\*\*admin page \(search \+ filter \+ sort\) 3\.00x \(missed\)\*\*/);
});
