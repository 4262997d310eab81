import type { Clock } from '../clock';
import { systemContext } from '../context';
import type { Database } from '../db/database';
import { batchInTenant } from '../db/tenant';
import type { Logger } from '../logger';
import { claimDueJobs, jobRepository } from './jobs.repository';

export interface ClaimedJob {
  id: string;
  organisationId: string;
  kind: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
  leaseToken: string;
}

/** What a handler may answer instead of succeeding: the job no longer applies (not an error). */
export interface JobCancelled {
  cancelled: string;
}

/** Thrown by a handler when retrying cannot help (e.g. the contact has no e-mail address). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export type JobHandler = (job: ClaimedJob) => Promise<JobCancelled | undefined>;

/** Lets services nudge the worker after committing new jobs, without knowing the worker. */
export interface JobSignal {
  wake(): void;
}

/** Delay before attempt n+1 after attempt n failed: 30 s, 1 min, 2 min, … capped at one hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
}

const WAKE_GATHER_MS = 20;

interface WorkerOptions {
  pollMs: number;
  batchSize?: number;
  leaseSeconds?: number;
}

/**
 * Runs due jobs of every organisation. Jobs are claimed with FOR UPDATE SKIP LOCKED under a lease, so
 * any number of processes may run a worker; each job runs at least once (a crash after sending but
 * before recording the outcome sends again once the lease ends).
 */
export class JobWorker implements JobSignal {
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private soon: NodeJS.Timeout | undefined;
  private started = false;
  private again = false;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: WorkerOptions,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Claims one batch of due jobs and runs them; returns how many were claimed. */
  async runDue(): Promise<number> {
    const now = this.clock.now();
    const claimed = await claimDueJobs(
      this.database.db,
      now,
      this.options.batchSize ?? 10,
      this.options.leaseSeconds ?? 120,
    );
    await Promise.all(
      claimed.map((r) =>
        this.run({
          id: r.id as string,
          organisationId: r.organisation_id as string,
          kind: r.kind as string,
          subjectId: (r.subject_id as string | null) ?? null,
          payload: r.payload as Record<string, unknown>,
          attempt: r.attempts as number,
          maxAttempts: r.max_attempts as number,
          leaseToken: r.lease_token as string,
        }),
      ),
    );
    return claimed.length;
  }

  /** Runs due jobs until none are left (bounded); for tests and the CLI. */
  async drain(maxBatches = 100): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await this.runDue();
      if (n === 0) break;
      total += n;
    }
    return total;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const log = this.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempt });
    let outcome: { status: 'done' | 'cancelled' | 'failed' | 'pending'; error: string | null };
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind ${job.kind}`);
      const result = await handler(job);
      outcome = result ? { status: 'cancelled', error: result.cancelled } : { status: 'done', error: null };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = err instanceof PermanentJobError || job.attempt >= job.maxAttempts;
      outcome = { status: final ? 'failed' : 'pending', error: message.slice(0, 1000) };
      log[final ? 'error' : 'warn']({ err: message }, final ? 'job failed' : 'job failed; will retry');
    }
    const now = this.clock.now();
    const ctx = systemContext(job.organisationId, now);
    const statement = jobRepository(this.database.db, ctx).settleStatement(job.id, job.leaseToken, {
      status: outcome.status,
      lastError: outcome.error,
      ...(outcome.status === 'pending'
        ? { runAt: new Date(now.getTime() + retryDelayMs(job.attempt)), finishedAt: null }
        : { finishedAt: now }),
    });
    // One round trip: the outcome is a single statement in a system context.
    const settled = await batchInTenant(this.database, ctx, [statement], { writes: true })
      .then(([rows]) => (rows ?? []).length > 0)
      .catch((err: unknown) => {
        log.error({ err }, 'recording the job outcome failed; it runs again when its lease ends');
        return true;
      });
    if (!settled) log.warn('the job’s lease was lost before its outcome was recorded');
    else if (outcome.status === 'done') log.info('job done');
  }

  /** Polls every pollMs and whenever woken, until stop(). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.wake();
  }

  /**
   * Runs due jobs soon. Wakes within a short window are gathered into one claim, so a burst of new
   * actions is sent in batches rather than one claim per request.
   */
  wake(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.soon) return;
    clearTimeout(this.timer);
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.runNow();
    }, WAKE_GATHER_MS);
    this.soon.unref();
  }

  private runNow(): void {
    if (!this.started || this.running) return;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (!this.started) return;
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      this.timer = setTimeout(() => this.runNow(), this.options.pollMs);
      this.timer.unref();
    });
  }

  private async loop(): Promise<void> {
    try {
      // Bounded: a queue that never empties yields to the next tick instead of spinning forever.
      for (let i = 0; i < 50 && this.started; i++) if ((await this.runDue()) === 0) break;
    } catch (err) {
      this.logger.error({ err }, 'claiming jobs failed');
    }
  }

  /** Stops polling and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    this.soon = undefined;
    await this.running;
  }
}
