import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database, Subscription } from '../db/database';

/** Seconds: from a millisecond to a minute (requests, transactions, jobs, webhook attempts). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Where the queue stands, read when the metrics are scraped (see jobQueueStatement). */
export interface JobQueueRow {
  kind: string;
  state: 'due' | 'scheduled' | 'running';
  jobs: number;
  oldestDueSeconds: number | null;
}

/**
 * The Prometheus metrics of one process (prom-client), served at /metrics (docs/operations.md#metrics).
 * Counters and histograms are fed as things happen; the gauges of the pool and the job queue are read
 * when scraped. One instance per process: tests make one per app, so their figures stay apart.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'actiondesk_http_requests_total',
    help: 'Requests answered, by route (its documented path), method, status and mode (live, test, none: no credentials)',
    labelNames: ['method', 'route', 'status', 'mode'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'actiondesk_http_request_duration_seconds',
    help: 'Time from a request’s arrival to the end of its answer, by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  readonly rateLimitRefusals = new Counter({
    name: 'actiondesk_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly dbDuration = new Histogram({
    name: 'actiondesk_db_transaction_duration_seconds',
    help: 'Time of database transactions, read batches and single queries, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  readonly jobOutcomes = new Counter({
    name: 'actiondesk_job_outcomes_total',
    help: 'Job attempts finished, by kind and outcome (done, cancelled, retry, failed, released)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'actiondesk_job_duration_seconds',
    help: 'Time of job attempts, by kind',
    labelNames: ['kind'] as const,
    buckets: BUCKETS,
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'actiondesk_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (succeeded, retry, failed), the answer’s status class (2xx, 3xx, 4xx, 5xx, none) and mode (live, test)',
    labelNames: ['outcome', 'status_class', 'mode'] as const,
    registers: [this.registry],
  });
  readonly messages = new Counter({
    name: 'actiondesk_messages_total',
    help: 'E-mails and SMS handed over, by channel and mode: live ones sent, test ones kept in the test inbox',
    labelNames: ['channel', 'mode'] as const,
    registers: [this.registry],
  });
  readonly webhookDuration = new Histogram({
    name: 'actiondesk_webhook_attempt_duration_seconds',
    help: 'Time of webhook delivery attempts, until the receiver’s answer or the timeout',
    buckets: BUCKETS,
    registers: [this.registry],
  });

  readonly queueReadFailures = new Counter({
    name: 'actiondesk_job_queue_read_failures_total',
    help: 'Scrapes whose job queue gauges could not be read (the database did not answer)',
    registers: [this.registry],
  });
  readonly retentionRemoved = new Counter({
    name: 'actiondesk_retention_removed_total',
    help: 'Rows removed by the retention sweep, by kind (jobs, events, webhook_deliveries, audit_events, …)',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });

  constructor(opts: { process?: boolean } = {}) {
    // The process's own figures (CPU, memory, event loop lag, GC), prefixed like ours.
    if (opts.process !== false) {
      collectDefaultMetrics({ register: this.registry, prefix: 'actiondesk_' });
      // Gauges named like counters (promtool check metrics objects); the same figures stay, by type, in
      // actiondesk_nodejs_active_handles, _requests and _resources.
      for (const name of ['handles', 'requests', 'resources'])
        this.registry.removeSingleMetric(`actiondesk_nodejs_active_${name}_total`);
    }
  }

  /** Reads the database pool's state at every scrape. */
  watchPool(database: Database): void {
    new Gauge({
      name: 'actiondesk_db_pool_connections',
      help: 'Database connections of this process: open (total), idle, and callers waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const s = database.poolStats();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
        this.set({ state: 'max' }, s.max);
      },
    });
  }

  /** Reads the job queue (every organisation's) at every scrape. */
  watchQueue(read: () => Promise<JobQueueRow[]>): void {
    let last: Promise<JobQueueRow[]> | undefined;
    const failures = this.queueReadFailures;
    // Both gauges are filled from one read per scrape. A read that fails (the database is down) leaves
    // them empty and counts the failure: the rest of the scrape is served all the same.
    const rows = () => {
      last ??= read()
        .catch(() => {
          failures.inc();
          return [] as JobQueueRow[];
        })
        .finally(() => {
          setImmediate(() => {
            last = undefined;
          });
        });
      return last;
    };
    new Gauge({
      name: 'actiondesk_jobs',
      help: 'Jobs in the queue, by kind and state: due (waiting for a worker), scheduled (due later), running',
      labelNames: ['kind', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const r of await rows()) this.set({ kind: r.kind, state: r.state }, r.jobs);
      },
    });
    new Gauge({
      name: 'actiondesk_jobs_oldest_due_age_seconds',
      help: 'How long the oldest due job has waited for a worker, by kind (0: none waits)',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const oldest = new Map<string, number>();
        for (const r of await rows()) {
          oldest.set(r.kind, Math.max(oldest.get(r.kind) ?? 0, r.oldestDueSeconds ?? 0));
        }
        for (const [kind, age] of oldest) this.set({ kind }, age);
      },
    });
  }

  /** The database with its transactions, batches and queries timed. */
  timed(database: Database): Database {
    const observe = <T>(kind: string, work: Promise<T>): Promise<T> => {
      const end = this.dbDuration.startTimer({ kind });
      return work.then(
        (value) => {
          end({ outcome: 'ok' });
          return value;
        },
        (err: unknown) => {
          end({ outcome: 'error' });
          throw err;
        },
      );
    };
    return {
      engine: database.engine,
      driver: database.driver,
      db: database.db,
      tenantTransaction: (entry, fn, opening) =>
        observe('transaction', database.tenantTransaction(entry, fn, opening)),
      tenantBatch: (entry, statements) => observe('batch', database.tenantBatch(entry, statements)),
      query: (text, params) => observe('query', database.query(text, params)),
      ping: () => database.ping(),
      poolStats: () => database.poolStats(),
      ownerTransaction: (fn) => database.ownerTransaction(fn),
      subscribe: (channel: string, onNotify: () => void): Subscription =>
        database.subscribe(channel, onNotify),
      close: () => database.close(),
    };
  }

  /** The text Prometheus scrapes. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** The status class of an answer for a label: 2xx, 4xx…; `none` when there was no answer. */
export const statusClass = (status: number | null | undefined): string =>
  status ? `${Math.floor(status / 100)}xx` : 'none';
