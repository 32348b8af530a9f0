import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { createHarness, type Harness, uniqueEmail } from './helpers';
import { freePort } from './security/processes';
import { booking } from './security/support';
import { startSmtp, type TestSmtp } from './smtp';

/** GET /metrics (issue 40): hidden without its token, Prometheus's format with it, queue figures that move. */

const TOKEN = 'metrics-token-0123456789abcdef';
const clock = new ShiftedClock();
let down: Harness;
let smtp: TestSmtp | undefined;
const extra: Harness[] = [];

beforeAll(async () => {
  const deadPort = await freePort();
  down = await createHarness({ clock, config: { metricsToken: TOKEN, smtpUrl: `smtp://127.0.0.1:${deadPort}` } });
});
afterAll(async () => {
  for (const h of extra) await h.close();
  await down?.close();
  await smtp?.close();
});

async function scrape(h: Harness): Promise<Map<string, MetricFamily>> {
  const res = await h.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f]));
}
const value = (families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}) => {
  const sample = families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) throw new Error(`no sample of ${name} ${JSON.stringify(labels)}`);
  return Number(sample.value);
};

describe('GET /metrics', () => {
  it('answers 404 as an unknown path does: without the token, with a wrong one, and to everyone when METRICS_TOKEN is unset', async () => {
    const unknown = await down.app.inject({ url: '/no-such-path' });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', TOKEN, `Basic ${TOKEN}`]) {
      const res = await down.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(404);
      expect(res.body).not.toContain('http_requests_total');
    }
    expect(unknown.statusCode).toBe(404);
    const unset = await createHarness({ database: down.database });
    extra.push(unset);
    const res = await unset.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
  });

  it('parses as Prometheus text: requests by route and status, latency, event-loop lag, the pool, sign-in failures', async () => {
    await down.app.inject({ url: '/healthz' });
    const failed = await down.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'nobody-here', password: 'wrong-password-1' },
    });
    expect(failed.statusCode).toBe(401);
    const m = await scrape(down);
    expect(value(m, 'http_requests_total', { route: '/healthz', status_code: '200', method: 'GET' })).toBeGreaterThan(
      0,
    );
    expect(value(m, 'http_requests_total', { route: '/api/admin/login', status_code: '401' })).toBe(1);
    expect(m.get('http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(m.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    expect(value(m, 'dn_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(value(m, 'dn_db_pool_waiting')).toBe(0);
    expect(value(m, 'dn_sign_in_failures_total')).toBeGreaterThanOrEqual(1);
    expect(m.get('dn_sign_in_lockouts_total')?.type).toBe('COUNTER');
    expect(value(m, 'dn_database_up')).toBe(1);
    expect(value(m, 'dn_last_backup_timestamp_seconds')).toBe(0);
  });

  it('an email queued while SMTP is down: the waiting count and oldest age rise, then fall once SMTP is back', async () => {
    const before = await scrape(down);
    expect(value(before, 'dn_email_outbox_waiting')).toBe(0);
    const email = uniqueEmail('metrics');
    const call = await down.app.inject({ method: 'POST', url: '/api/schedule-call', payload: booking(email) });
    expect(call.statusCode, call.body).toBeLessThan(300);
    await down.app.deps.mail.flush(); // the attempt fails: the message stays queued
    clock.advance(5 * 60_000);
    const stuck = await scrape(down);
    const waiting = value(stuck, 'dn_email_outbox_waiting');
    expect(waiting).toBeGreaterThanOrEqual(1);
    expect(value(stuck, 'dn_email_outbox_oldest_waiting_seconds')).toBeGreaterThanOrEqual(300);
    clock.advance(60_000);
    expect(value(await scrape(down), 'dn_email_outbox_oldest_waiting_seconds')).toBeGreaterThanOrEqual(360);

    // SMTP is back (an app configured with the live server, on the same database); the retry is due.
    smtp = await startSmtp();
    const up = await createHarness({
      database: down.database,
      clock,
      config: { metricsToken: TOKEN, smtpUrl: smtp.url },
    });
    extra.push(up);
    await up.db.updateTable('emailOutbox').set({ nextAttemptAt: new Date() }).where('toAddress', '=', email).execute();
    await up.app.deps.mail.flush();
    await smtp.waitFor(email);
    const drained = await scrape(up);
    expect(value(drained, 'dn_email_outbox_waiting')).toBe(0);
    expect(value(drained, 'dn_email_outbox_oldest_waiting_seconds')).toBe(0);
    expect(value(drained, 'dn_email_outbox_failed')).toBe(0);
  });
});
