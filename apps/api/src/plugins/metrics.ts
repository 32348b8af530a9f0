import type { Database } from '@dn/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Deps } from '../context';
import { signInCounts } from '../services/accounts/sign-in';
import { type SystemFigures, systemFigures } from '../services/system/figures';

/**
 * The process's Prometheus metrics (issue 40, decision 0971), one registry per app: every request's
 * count and latency by route and status (an onResponse hook), Node's own (event-loop lag, memory,
 * handles), the database pool, and the queue figures read at scrape time in one statement. Served
 * by http/metrics.ts behind METRICS_TOKEN.
 */
export interface AppMetrics {
  /** The exposition text: the DB figures are read now (one statement), the rest is in memory. */
  render(): Promise<string>;
  contentType: string;
}

/** Upper bounds of the latency buckets, in seconds: a poll answers in milliseconds, an export in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { deps: Deps; pool: Database['pool'] }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, route (its pattern; "unmatched" for no route) and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    const requestCount = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by method, route and status code',
      labelNames: ['method', 'route', 'status_code'],
      registers: [registry],
    });
    app.addHook('onResponse', async (req, reply) => {
      const labels = {
        method: req.method,
        route: req.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      };
      requests.observe(labels, reply.elapsedTime / 1000);
      requestCount.inc(labels);
    });

    const pool = opts.pool;
    new Gauge({
      name: 'dn_db_pool_connections',
      help: 'Database connections of this process, in use or idle',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'dn_db_pool_waiting',
      help: 'Queries waiting for a database connection of this process',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Counter({
      name: 'dn_sign_in_failures_total',
      help: 'Failed sign-ins (wrong username or password) since this process started',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(signInCounts.failures);
      },
    });
    new Counter({
      name: 'dn_sign_in_lockouts_total',
      help: 'Sign-ins refused because an account or address spent its budget, since this process started',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(signInCounts.lockouts);
      },
    });

    const gauge = (name: string, help: string, labelNames: string[] = []) =>
      new Gauge({ name, help, labelNames, registers: [registry] });
    const databaseUp = gauge('dn_database_up', '1 when the queue figures could be read at this scrape, else 0');
    const mailWaiting = gauge('dn_email_outbox_waiting', 'Emails waiting to be sent (pending or being sent)');
    const mailOldest = gauge('dn_email_outbox_oldest_waiting_seconds', 'Age of the oldest waiting email, 0 when none');
    const mailFailed = gauge('dn_email_outbox_failed', 'Emails given up on after their last attempt');
    const tasks = gauge('dn_scheduled_tasks', 'Scheduled tasks by state (due, overdue, failed)', ['state']);
    const jobsWaiting = gauge('dn_jobs_waiting_for_installer', 'Jobs waiting for an installer');
    const jobsOldest = gauge('dn_jobs_oldest_waiting_seconds', 'Age of the oldest job waiting for an installer');
    const lastBackup = gauge(
      'dn_last_backup_timestamp_seconds',
      'When the last backup finished (Unix time), 0 if never',
    );
    const lastBackupFailed = gauge('dn_last_backup_failed', '1 when the last backup run failed');

    const setFigures = (f: SystemFigures) => {
      mailWaiting.set(f.mailWaiting);
      mailOldest.set(f.mailOldestSeconds);
      mailFailed.set(f.mailFailed);
      // Figures this build does not count yet (issues 37 and 38 at merge) are left out, not shown as 0.
      for (const [state, value] of [
        ['due', f.tasksDue],
        ['overdue', f.tasksOverdue],
        ['failed', f.tasksFailed],
      ] as const) {
        if (value !== null) tasks.set({ state }, value);
      }
      if (f.jobsWaiting !== null) jobsWaiting.set(f.jobsWaiting);
      if (f.jobsOldestSeconds !== null) jobsOldest.set(f.jobsOldestSeconds);
      lastBackup.set(f.lastBackupAt ? f.lastBackupAt.getTime() / 1000 : 0);
      lastBackupFailed.set(f.lastBackupError ? 1 : 0);
    };

    const metrics: AppMetrics = {
      contentType: registry.contentType,
      async render() {
        try {
          setFigures(await systemFigures(opts.deps));
          databaseUp.set(1);
        } catch (err) {
          // The process's own metrics still answer; the alert on dn_database_up says why the rest is stale.
          app.log.warn({ err }, 'metrics: the queue figures could not be read');
          databaseUp.set(0);
        }
        return registry.metrics();
      },
    };
    app.decorate('metrics', metrics);
  },
  { name: 'metrics' },
);

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}
