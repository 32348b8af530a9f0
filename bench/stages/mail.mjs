// Stage `mail` (issue 40): the outbox against a local SMTP server (smtp-server, in this process).
// The production server sends through its pooled SMTP transport (SMTP_MAX_CONNECTIONS, default 5) with
// decisions final at once (UNDO_WINDOW_SECONDS=0). One database of `--mail-scale` dealers (default
// 50,000, so 10,000 pending) and:
// - a bulk approval of `--bulk` pending dealers (default 10,000) through the real procedure: its
//   10,000 decision emails (bulk mail) drain; emails/s from the first to the last (target >= 100);
// - while they drain (once 1,000 have arrived), a dealer asks for a password reset link: the time from
//   the request's answer to the link's arrival (target < 5 s), and how many decision emails were
//   still waiting then.
import { SMTPServer } from 'smtp-server';
import { appCookies, appFixture, startApp } from '../lib/app.mjs';
import { sleep } from '../lib/proc.mjs';
import { BENCH_DEALER } from '../lib/seed.mjs';

export const MAIL_PER_SECOND = 100;
export const RESET_SECONDS = 5;

/** A local SMTP server that counts what arrives: each message's recipients and arrival time. */
async function countingSmtp() {
  const arrivals = [];
  const waiters = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, cb) {
      connections++;
      cb();
    },
    onData(stream, session, cb) {
      stream.on('data', () => {});
      stream.on('end', () => {
        const at = performance.now();
        for (const r of session.envelope.rcptTo) arrivals.push({ to: r.address.toLowerCase(), at });
        for (const w of waiters.splice(0)) w();
        cb();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    connections: () => connections,
    /** Resolves when `test(arrivals)` holds, or rejects after `ms`. */
    async until(test, ms) {
      const deadline = performance.now() + ms;
      while (!test(arrivals)) {
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`mail: gave up waiting after ${Math.round(ms / 1000)} s`);
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, Math.min(left, 250));
        });
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export async function mailStage(ctx) {
  const o = ctx.opts;
  const bulk = o.bulk;
  const out = { startedAt: new Date().toISOString(), settings: { dealers: o.mailScale, bulk, maxConnections: 5 } };
  const smtp = await countingSmtp();
  const fx = await appFixture(ctx, { dealers: o.mailScale, tag: 'mail' });
  let server;
  try {
    await fx.db.query(
      `update dealers set status = 'rejected', rejection_reason = 'Incomplete application'
       where status = 'pending' and id not in (select id from dealers where status = 'pending' order by created_at desc limit $1)`,
      [bulk],
    );
    out.pending = (await fx.db.query(`select count(*)::int n from dealers where status = 'pending'`)).rows[0].n;
    server = await startApp(ctx, fx, {
      name: 'mail',
      logLevel: 'warn',
      env: { SMTP_URL: smtp.url, UNDO_WINDOW_SECONDS: '0', MAIL_FROM: 'Dealer Network <no-reply@bench.test>' },
    });
    const cookies = await appCookies(server.base);
    const post = async (path, body, cookie) => {
      const r = await fetch(server.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.10', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body ?? {}),
      });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text);
    };
    ctx.log(`mail: bulk approval of ${out.pending.toLocaleString('en-US')} dealers, then their emails drain`);
    const before = smtp.arrivals.length;
    const t0 = performance.now();
    let last = await post(
      '/api/admin/review/bulk',
      { selection: { filter: { status: 'pending' } }, decision: { kind: 'approve' } },
      cookies.admin,
    );
    while (!last.done) last = await post(`/api/admin/review/actions/${last.id}/continue`, {}, cookies.admin);
    out.approvedSeconds = (performance.now() - t0) / 1000;
    const expected = last.changed ?? out.pending;

    // The reset link, asked for once 1,000 decision emails have arrived.
    await smtp.until((a) => a.length - before >= Math.min(1_000, expected), 120_000);
    const waitingThen = (
      await fx.db.query(`select count(*)::int n from email_outbox where status in ('pending', 'sending')`)
    ).rows[0].n;
    const dealer = BENCH_DEALER.email.toLowerCase();
    const asked = performance.now();
    await post('/api/dealer/reset-password', { email: BENCH_DEALER.email });
    const answered = performance.now();
    await smtp.until((a) => a.some((m) => m.to === dealer && m.at >= asked), 60_000);
    const arrived = smtp.arrivals.find((m) => m.to === dealer && m.at >= asked).at;
    out.reset = {
      seconds: (arrived - answered) / 1000,
      requestMs: Math.round(answered - asked),
      waitingWhenAsked: waitingThen,
      decisionEmailsBeforeIt: smtp.arrivals.filter((m) => m.at < arrived).length - before,
    };

    await smtp.until((a) => a.length - before >= expected + 1, 600_000);
    const drained = smtp.arrivals.slice(before).filter((m) => m.to !== dealer);
    const first = drained[0].at;
    const lastAt = drained.at(-1).at;
    out.drain = {
      emails: drained.length,
      seconds: (lastAt - first) / 1000,
      perSecond: Math.round((drained.length - 1) / ((lastAt - first) / 1000)),
      connections: smtp.connections(),
    };
    // The last message's row is marked sent just after the server took it.
    await sleep(1_000);
    const statuses = await fx.db.query(`select status, count(*)::int n from email_outbox group by status order by 1`);
    out.outbox = Object.fromEntries(statuses.rows.map((r) => [r.status, r.n]));
    out.finishedAt = new Date().toISOString();
    return out;
  } finally {
    await server?.stop().catch(() => {});
    await fx.drop();
    await smtp.close();
  }
}

export function mailTargets(r) {
  if (!r?.drain) return [];
  const k = (n) => (n ?? 0).toLocaleString('en-US');
  return [
    {
      target: `the outbox sends >= ${MAIL_PER_SECOND} emails/s to a local SMTP server`,
      ok: r.drain.perSecond >= MAIL_PER_SECOND,
      value: `${k(r.drain.perSecond)}/s: ${k(r.drain.emails)} decision emails in ${r.drain.seconds.toFixed(1)} s over ${r.drain.connections} connections`,
    },
    {
      target: `a reset link arrives in < ${RESET_SECONDS} s while ${k(r.settings.bulk)} decision emails drain`,
      ok: r.reset.seconds < RESET_SECONDS,
      value: `${r.reset.seconds.toFixed(2)} s (${k(r.reset.waitingWhenAsked)} waiting when asked; ${k(r.reset.decisionEmailsBeforeIt)} decision emails arrived before it)`,
    },
  ];
}
