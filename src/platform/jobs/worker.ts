import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Database, Subscription } from '../db/database';
import { isDatabaseUnavailable } from '../db/errors';
import { inTenant } from '../db/tenant';
import type { Clock } from '../kernel/clock';
import { systemContext } from '../kernel/context';
import type { z } from '../kernel/zod';
import { type Logger, withLogFields } from '../ops/logger';
import type { Metrics } from '../ops/metrics';
import {
  type ClaimedJob,
  claimedJob,
  failedAttempt,
  type GiveUpHook,
  type JobHandler,
  JobInterrupted,
  type JobSignal,
  PermanentJobError,
  withTimeout,
} from './job';
import type { JobType } from './job-type';
import type { SettleItem } from './jobs.repository';
import { claimDueJobs, jobRepository, releaseUnheld } from './jobs.repository';
import { type GivingUp, JobOutcomes } from './outcomes';
import { runningAs } from './running';

/** A claimed job while it runs: `stop` interrupts it when the worker stops before it finishes. */
interface InFlight {
  job: ClaimedJob;
  stop: AbortController;
}

const WAKE_GATHER_MS = 20;
/** Where the database announces jobs that are due now (a trigger on jobs, migration 0034). */
const JOBS_CHANNEL = 'actiondesk_jobs';
/** Slots freed within this window are filled by one claim (fewer, larger claims under load). */
const REFILL_GATHER_MS = 5;

interface WorkerOptions {
  pollMs: number;
  /** Most jobs claimed in one statement. */
  batchSize?: number;
  /** Most jobs running at once in this process; a free slot is filled at once, whatever the others do. */
  concurrency?: number;
  /** Lease of a claimed job; always longer than the longest job timeout. */
  leaseSeconds?: number;
  /** Where job outcomes and durations are counted. */
  metrics?: Metrics;
}

interface Registered {
  type: JobType;
  handler: JobHandler;
  onGiveUp?: GiveUpHook;
}

/**
 * Runs due jobs of every organisation. Jobs are claimed with FOR UPDATE SKIP LOCKED under a lease, so
 * any number of processes may run a worker; each job runs at least once (a crash after sending but
 * before recording the outcome sends again once the lease ends).
 */
export class JobWorker implements JobSignal {
  private readonly handlers = new Map<string, Registered>();
  private readonly inFlight = new Map<Promise<void>, InFlight>();
  /** This process's name on the jobs it claims (jobs.claimed_by). */
  readonly name = randomUUID();
  /** Set when a claim or an outcome may have been lost with the database: reconcile() runs first. */
  private unsure = false;
  /** Records a job's outcome as soon as it is known (see JobOutcomes). */
  private readonly outcomes: JobOutcomes;
  private timer: NodeJS.Timeout | undefined;
  private subscription: Subscription | undefined;
  private running: Promise<void> | undefined;
  private soon: NodeJS.Timeout | undefined;
  private started = false;
  private refilling = false;
  private again = false;
  /**
   * Runs the worker's loop in the context the worker was made in: a wake from inside a request must
   * not carry that request's context (its held transaction) into the jobs.
   */
  private readonly detached = AsyncLocalStorage.snapshot();

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: WorkerOptions,
  ) {
    this.outcomes = new JobOutcomes(database, clock, logger);
  }

  /**
   * Runs jobs of `type` with `handler`; their payloads reach it checked against the type's schema.
   * `onGiveUp` writes what a job's final failure causes, in the transaction that records it.
   */
  register<S extends z.ZodType>(
    type: JobType<S>,
    handler: JobHandler<z.output<S>>,
    hooks: { onGiveUp?: GiveUpHook<z.output<S>> } = {},
  ): void {
    this.handlers.set(type.kind, {
      type,
      handler: handler as JobHandler,
      onGiveUp: hooks.onGiveUp as GiveUpHook | undefined,
    });
  }

  private get concurrency(): number {
    return this.options.concurrency ?? 10;
  }

  /** The lease outlasts every registered job's timeout, so a running attempt is never claimed twice. */
  private get leaseSeconds(): number {
    const longest = Math.max(0, ...[...this.handlers.values()].map((r) => r.type.timeoutMs));
    return Math.max(this.options.leaseSeconds ?? 120, Math.ceil(longest / 1000) + 30);
  }

  /**
   * Claims as many due jobs as there are free slots and starts them without waiting for them; each
   * records its own outcome as soon as it finishes, and a finished job frees its slot for the next
   * claim at once. Answers how many it claimed.
   */
  async runDue(): Promise<number> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    if (this.unsure) await this.reconcile();
    const claimed = await claimDueJobs(
      this.database.db,
      this.clock.now(),
      Math.min(this.options.batchSize ?? 10, free),
      this.leaseSeconds,
      this.name,
    ).catch((err: unknown) => {
      // The claim may have committed without its answer reaching us: check once the database is back.
      if (isDatabaseUnavailable(err)) this.unsure = true;
      throw err;
    });
    for (const r of claimed) {
      const job = claimedJob(r);
      const stop = new AbortController();
      // Every line logged while the job runs names it, and the request that made it.
      const fields = {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempt,
        requestId: job.requestId ?? undefined,
      };
      const running: Promise<void> = withLogFields(fields, () =>
        runningAs(job, () => this.run(job, stop.signal)),
      ).finally(() => {
        this.inFlight.delete(running);
        this.refill();
      });
      this.inFlight.set(running, { job, stop });
    }
    return claimed.length;
  }

  /** Runs due jobs until none are left and none is running (bounded); for tests and the CLI. */
  async drain(maxRounds = 1_000): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxRounds; i++) {
      const claimed = await this.runDue();
      total += claimed;
      if (claimed > 0) continue;
      if (this.inFlight.size === 0) break;
      await Promise.race(this.inFlight.keys());
    }
    await Promise.all(this.inFlight.keys());
    return total;
  }

  private async run(job: ClaimedJob, stopping: AbortSignal): Promise<void> {
    const registered = this.handlers.get(job.kind);
    // Its lines carry the job's fields (withLogFields in runDue).
    const log = () => this.logger;
    const timer = this.options.metrics?.jobDuration.startTimer({ kind: job.kind });
    const count = (outcome: 'done' | 'cancelled' | 'retry' | 'failed' | 'released') => {
      timer?.();
      this.options.metrics?.jobOutcomes.inc({ kind: job.kind, outcome });
    };
    let outcome: {
      status: 'done' | 'cancelled' | 'failed' | 'pending';
      error: string | null;
      runAt?: Date;
    };
    // Set once the payload is checked: a job whose payload its type refuses causes nothing when it fails.
    let givingUp: GivingUp | undefined;
    try {
      if (!registered) throw new PermanentJobError(`no handler for job kind ${job.kind}`);
      const payload = registered.type.read(job.payload);
      if (registered.onGiveUp) givingUp = { job: { ...job, payload }, onGiveUp: registered.onGiveUp };
      const result = await withTimeout(
        registered.type.timeoutMs,
        (signal) => registered.handler({ ...job, payload }, signal),
        stopping,
      );
      if (result && 'settled' in result) {
        count('done');
        if (!result.settled) log().warn('the job’s lease was lost before its outcome was recorded');
        else if (this.logger.isLevelEnabled('debug')) log().debug('job done');
        return;
      }
      outcome = result ? { status: 'cancelled', error: result.cancelled } : { status: 'done', error: null };
    } catch (err) {
      // Handed back by stop(), which releases the lease: nothing to record.
      if (err instanceof JobInterrupted) {
        count('released');
        return;
      }
      const delay = registered?.type.retryDelayMs(job.attempt) ?? 0;
      outcome = failedAttempt(err, job, new Date(this.clock.now().getTime() + delay));
      const final = outcome.status === 'failed';
      const message = err instanceof Error ? err.message : String(err);
      log()[final ? 'error' : 'warn']({ err: message }, final ? 'job failed' : 'job failed; will retry');
    }
    count(outcome.status === 'pending' ? 'retry' : outcome.status);
    const now = this.clock.now();
    const item: SettleItem = {
      id: job.id,
      leaseToken: job.leaseToken,
      status: outcome.status,
      lastError: outcome.error,
      runAt: outcome.status === 'pending' ? (outcome.runAt ?? now) : null,
      finishedAt: outcome.status === 'pending' ? null : now,
    };
    const recorded = this.outcomes.record(job.organisationId, item, stopping, givingUp);
    const settled = await recorded.catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) this.unsure = true;
      log().error({ err }, 'recording the job outcome failed; it runs again when its lease ends');
      return true;
    });
    if (!settled) log().warn('the job’s lease was lost before its outcome was recorded');
    else if (outcome.status === 'done' && this.logger.isLevelEnabled('debug')) log().debug('job done');
  }

  /**
   * Polls every pollMs and whenever woken, until stop(): by this process's requests, and by any process
   * that commits a job due now (the database's NOTIFY on JOBS_CHANNEL, see migration 0034).
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.subscription ??= this.database.subscribe(JOBS_CHANNEL, () => this.wake());
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

  /**
   * A slot came free: claim again at the end of this turn of the event loop (jobs whose outcomes were
   * recorded together free their slots together, and share one claim), without the wake's gathering
   * delay, which is for new work.
   */
  private refill(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.refilling) return;
    this.refilling = true;
    setTimeout(() => {
      this.refilling = false;
      if (this.soon) {
        clearTimeout(this.soon);
        this.soon = undefined;
      }
      clearTimeout(this.timer);
      this.runNow();
    }, REFILL_GATHER_MS).unref();
  }

  private runNow(): void {
    if (!this.started || this.running) return;
    this.running = this.detached(() => this.loop()).finally(() => {
      this.running = undefined;
      if (!this.started) return;
      if (this.again) {
        this.again = false;
        this.refill();
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

  /**
   * Stops claiming and waits for the jobs in hand to finish, for at most `graceMs`. Jobs still running
   * then are interrupted (their signal aborts) and handed back: due again at once for any worker, the
   * interrupted attempt not counted. Answers how many finished and how many were handed back.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<{ finished: number; released: number }> {
    this.started = false;
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    this.soon = undefined;
    await this.subscription?.close();
    this.subscription = undefined;
    await this.running;
    const inHand = this.inFlight.size;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'late'>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve('late'), Math.max(0, graceMs));
    });
    const outcome = await Promise.race([
      Promise.all(this.inFlight.keys()).then(() => 'done' as const),
      graceOver,
    ]);
    clearTimeout(timer);
    if (outcome === 'done') return { finished: inHand, released: 0 };
    const late = [...this.inFlight.entries()];
    for (const [, running] of late) running.stop.abort(new JobInterrupted('the worker is stopping'));
    await Promise.all(late.map(([promise]) => promise));
    const released = await this.release(late.map(([, running]) => running.job));
    this.logger.warn(
      { released, jobs: late.map(([, r]) => ({ jobId: r.job.id, kind: r.job.kind })) },
      'stopping: jobs still running were handed back to the queue',
    );
    return { finished: inHand - late.length, released };
  }

  /**
   * Hands back the jobs the database has running under this worker's name that it does not hold (a
   * claim whose answer was lost, an outcome that could not be recorded): due again at once.
   */
  async reconcile(): Promise<string[]> {
    const held = [...this.inFlight.values()].map((r) => r.job.leaseToken);
    const released = await releaseUnheld(this.database.db, this.clock.now(), this.name, held);
    this.unsure = false;
    if (released.length > 0)
      this.logger.warn(
        { released },
        'jobs claimed while the database was lost were handed back to the queue',
      );
    return released;
  }

  /** Releases the leases of `jobs`, one statement per organisation. */
  private async release(jobs: ClaimedJob[]): Promise<number> {
    const byOrg = new Map<string, ClaimedJob[]>();
    for (const job of jobs) byOrg.set(job.organisationId, [...(byOrg.get(job.organisationId) ?? []), job]);
    let released = 0;
    for (const [organisationId, items] of byOrg) {
      const ctx = systemContext(organisationId, this.clock.now(), 'job worker');
      released += await inTenant(this.database, ctx, (tx) =>
        jobRepository(tx, ctx).release(items, this.clock.now()),
      ).catch((err: unknown) => {
        this.logger.error(
          { err, organisationId },
          'handing jobs back failed; they run again when their lease ends',
        );
        return 0;
      });
    }
    return released;
  }
}
