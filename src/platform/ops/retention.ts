import type { Database } from '../db/database';
import type { Clock } from '../kernel/clock';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import { pruneBatch } from './retention.repository';

/** How long finished work is kept, in days (null: for ever), and how often the sweep runs. */
export interface RetentionConfig {
  readonly jobsDays: number | null;
  readonly eventsDays: number | null;
  readonly auditDays: number | null;
  readonly sweepMs: number;
}

/**
 * Rows a module keeps only for a while (its own table, its own rule), removed by the same sweep: at
 * most `limit` per call; the count removed.
 */
export interface RetentionStep {
  what: string;
  prune(database: Database, now: Date, limit: number): Promise<number>;
}

const DAY_MS = 86_400_000;
/** Rows of each kind removed per transaction. */
const BATCH = 5_000;
/** Batches per sweep at most: a backlog larger than this is worked off over the next sweeps. */
const MAX_BATCHES = 200;

/**
 * Removes what the retention settings no longer keep, in batches of short transactions, until nothing
 * is left or MAX_BATCHES ran. Answers the rows removed by kind. Safe with several instances: one
 * sweep runs at a time (the others' calls remove nothing).
 */
export async function sweepRetention(
  database: Database,
  now: Date,
  config: RetentionConfig,
  stopping: () => boolean = () => false,
  steps: readonly RetentionStep[] = [],
): Promise<Record<string, number>> {
  const before = (days: number | null) => (days === null ? null : new Date(now.getTime() - days * DAY_MS));
  const bounds = {
    jobs: before(config.jobsDays),
    events: before(config.eventsDays),
    audit: before(config.auditDays),
  };
  const total: Record<string, number> = {};
  for (let i = 0; i < MAX_BATCHES && !stopping(); i++) {
    const removed = await pruneBatch(database.db, now, bounds, BATCH);
    for (const step of steps) removed[step.what] = await step.prune(database, now, BATCH);
    for (const [what, n] of Object.entries(removed)) total[what] = (total[what] ?? 0) + n;
    if (!Object.values(removed).some((n) => n >= BATCH)) break;
  }
  return total;
}

/** Runs the sweep every `sweepMs` (first a minute after start) in a process that runs the job worker. */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly deps: {
      database: Database;
      clock: Clock;
      logger: Logger;
      metrics?: Metrics;
      /** The modules' own expiring rows. */
      steps?: readonly RetentionStep[];
    },
    private readonly config: RetentionConfig,
  ) {}

  start(firstInMs = 60_000): void {
    this.stopped = false;
    this.schedule(firstInMs);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep().then(() => {
        this.running = undefined;
        this.schedule(this.config.sweepMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** One sweep now; logs what it removed (failures too: the next sweep tries again). */
  async sweep(): Promise<Record<string, number>> {
    try {
      const removed = await sweepRetention(
        this.deps.database,
        this.deps.clock.now(),
        this.config,
        () => this.stopped,
        this.deps.steps,
      );
      for (const [what, n] of Object.entries(removed))
        if (n > 0) this.deps.metrics?.retentionRemoved.inc({ what }, n);
      if (Object.values(removed).some((n) => n > 0)) this.deps.logger.info({ removed }, 'retention sweep');
      return removed;
    } catch (err) {
      this.deps.logger.warn({ err }, 'retention sweep failed; the next one tries again');
      return {};
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
