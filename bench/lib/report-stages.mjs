// The stages' part of results.md: their targets (beside the main stage's), the side-by-side table
// of `peers` and the table under the cost curve's chart.
import { adminTargets } from '../stages/admin.mjs';
import { CURVE, curveTargets } from '../stages/curve.mjs';
import { loggingTargets } from '../stages/logging.mjs';
import { mailTargets } from '../stages/mail.mjs';
import { partnerTargets } from '../stages/partner.mjs';
import { payeesTargets } from '../stages/payees.mjs';
import { POLLS, peersTargets } from '../stages/peers.mjs';
import { routingTargets } from '../stages/routing.mjs';
import { f0, mb, minute, ms, pipe, x2 } from './format.mjs';
import { pairedRatio } from './load.mjs';

/** Every stage's targets, each with the stage that measures it. */
export function stageTargets(r) {
  const tag = (stage, list) => list.map((t) => ({ stage, ...t }));
  return [
    ...tag('peers', peersTargets(r.peers)),
    ...tag('logging', loggingTargets(r.logging)),
    ...tag('curve', curveTargets(r.curve)),
    ...tag('partner', partnerTargets(r.partner)),
    ...tag('admin', adminTargets(r.admin)),
    ...tag('mail', mailTargets(r.mail)),
    ...tag('payees', payeesTargets(r.payees)),
    ...tag('routing', routingTargets(r.routing)),
  ];
}

/** The app beside B0, B1 and its same-SQL baseline: one row per poll, the browser's batches, signup. */
export function sideBySide(p) {
  const s = p.settings;
  const L = ['## Side by side with B0 and B1 (stage `peers`)', ''];
  L.push(
    `${minute(p.startedAt)} UTC, ${f0(s.dealers)} dealers. req/s at ${s.connections} connections, the median of ${s.rounds} rounds; p99 in ms. ` +
      "tRPC/api and 304/200 are the median of the rounds' own ratios (the runs side by side), as their targets are judged.",
    '',
    '| Endpoint | B0 | B1 | same-SQL baseline | app | p99 B0 / B1 / app | app/B0 | app/B1 | tRPC/api | 304/200 |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  const paired = (e, w) =>
    e[w] ? x2(pairedRatio(e[w].perRound, e.app.perRound)) : w === 'trpc' ? 'REST only' : 'no ETag';
  for (const x of POLLS) {
    const e = p.polls[x.key];
    if (!e?.app) continue;
    const b0 = x.floor ? p.polls[x.floor]?.b0 : e.b0;
    L.push(
      `| ${e.label} | ${f0(e.b0?.reqPerSec)} | ${f0(e.b1?.reqPerSec)} | ${f0(e.base?.reqPerSec)} | ${f0(e.app.reqPerSec)} | ${ms(e.b0?.p99)} / ${ms(e.b1?.p99)} / ${ms(e.app.p99)} | ${x2(e.app.reqPerSec / b0?.reqPerSec)}${x.floor ? ` (B0's ${x.floor})` : ''} | ${x2(e.app.reqPerSec / e.b1?.reqPerSec)} | ${paired(e, 'trpc')} | ${paired(e, 'app304')} |`,
    );
  }
  for (const b of Object.values(p.batches ?? {}))
    L.push(
      `| ${b.label} (${b.of.join(' + ')}), one tRPC batch GET | | | | ${f0(b.trpc.reqPerSec)} batches/s | | | | ${x2(b.trpc.reqPerSec / b.expected)} of the two /api calls (${f0(b.expected)}) | |`,
    );
  const g = p.signup;
  if (g?.app)
    L.push(
      `| POST /api/dealer-signup (unique emails) | ${f0(g.b0?.reqPerSec)} | ${f0(g.b1?.reqPerSec)} | | ${f0(g.app.reqPerSec)} | ${ms(g.b0?.p99)} / ${ms(g.b1?.p99)} / ${ms(g.app.p99)} | ${x2(g.app.reqPerSec / g.b0?.reqPerSec)} | ${x2(g.app.reqPerSec / g.b1?.reqPerSec)} | | |`,
    );
  L.push(
    '',
    "B0's `auth/user` returns a constant without reading anything, so the app's is held to B0's `dealer/info`. " +
      'The admin metrics are no target: B0 and B1 count the dealers at each request (`count(*)` by tier and status), the app reads the counts it keeps (`dealer_counts`, kept by triggers). ' +
      'Each round, the answers checked before timing and, for each missed target, the wait events, a CPU profile and the plans: `peers` in results.json.',
    '',
  );
  return L;
}

/** The cost curve: the chart and its figures, p95 at one client and req/s at c=50 per data size. */
export function curveTable(c) {
  const s = c.settings;
  const sizes = [...s.sizes].sort((a, b) => a - b);
  const L = ['## Cost curve (stage `curve`)', ''];
  L.push(
    '![p95 at one client and req/s per data size, one line per endpoint](curve.svg)',
    '',
    `${minute(c.startedAt)} UTC. A fresh database per size (per dealer: 10 orders, 3 commissions, 10 audit rows; links a fifth of the dealers, calls half). ` +
      `Each cell: p95 at one client / req/s at ${s.connections} connections.`,
    '',
    `| Endpoint | ${sizes.map((n) => `${f0(n)} dealers`).join(' | ')} |`,
    `|---|${sizes.map(() => '---').join('|')}|`,
  );
  for (const e of Object.values(c.endpoints)) {
    const cell = (n) => {
      const x = e.sizes[n];
      if (!x) return 'n/a';
      if (x.notBuilt || x.error) return pipe(x.notBuilt ?? x.error);
      return `${ms(x.single.p95)} ms / ${f0(x.loaded.reqPerSec)}`;
    };
    L.push(`| ${e.label} | ${sizes.map(cell).join(' | ')} |`);
  }
  L.push(
    `| CSV export: rows/s, peak memory growth | ${sizes.map((n) => (c.export?.[n] ? `${f0(c.export[n].rowsPerSec)} rows/s, ${mb(c.export[n].rssGrowthMaxBytes)}` : 'n/a')).join(' | ')} |`,
    '',
  );
  const notBuilt = CURVE.filter((e) => !e.path).map((e) => e.key);
  if (notBuilt.length) L.push(`Not built yet (bench/stages/curve.mjs, \`CURVE\`): ${notBuilt.join(', ')}.`, '');
  return L;
}
