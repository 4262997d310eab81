import { type Database, queryRows } from '../db/database';
import { isDatabaseUnavailable } from '../db/errors';
import { batchInTenant, inTenant } from '../db/tenant';
import type { Clock } from '../kernel/clock';
import { coalescer } from '../kernel/coalesce';
import { systemContext } from '../kernel/context';
import type { Logger } from '../ops/logger';
import { type ClaimedJob, type GiveUpHook, pause } from './job';
import { type SettleItem, settleStatement } from './jobs.repository';

/** Waits before recording an outcome again while the database cannot be reached (about 30 s in all). */
const SETTLE_RETRY_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000];

/** A job that failed for good, as its handler saw it (payload checked), and what its failure causes. */
export interface GivingUp {
  job: ClaimedJob;
  onGiveUp: GiveUpHook;
}

/**
 * Records claimed jobs' outcomes for the worker, each only while its lease is still the worker's, and
 * answers whether it was. While the database cannot be reached it tries again for about half a minute
 * (unless the worker is told to stop), so that a short outage does not make a finished job run again
 * when its lease ends.
 */
export class JobOutcomes {
  /**
   * Outcomes known in the same turn of the event loop are recorded together, one statement and one
   * round trip per organisation.
   */
  private readonly settle = coalescer<SettleItem, boolean>(async (organisationId, items) => {
    const ctx = systemContext(organisationId, this.clock.now(), 'job worker');
    const [rows = []] = await batchInTenant(this.database, ctx, [settleStatement(items)], { writes: true });
    const settled = new Set(rows.map((r) => r.id as string));
    return items.map((i) => settled.has(i.id));
  });

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Records `item`. A final failure whose job type has a give-up hook is recorded in a transaction of its
   * own, with what the hook writes. A hook that fails for another reason than the database being away
   * (a bug) is logged and the failure recorded alone: the job must not run on forever for its notice.
   */
  async record(
    organisationId: string,
    item: SettleItem,
    stopping: AbortSignal,
    givingUp?: GivingUp,
  ): Promise<boolean> {
    if (givingUp && item.status === 'failed') {
      try {
        return await this.retrying(() => this.giveUp(organisationId, item, givingUp), stopping);
      } catch (err) {
        if (isDatabaseUnavailable(err) || stopping.aborted) throw err;
        this.logger.error(
          { err },
          'what the job’s failure causes was not written; its failure is recorded alone',
        );
      }
    }
    return this.retrying(() => this.settle(organisationId, item), stopping);
  }

  /** The failure and what it causes, committed together; the hook runs only if the lease was still ours. */
  private giveUp(organisationId: string, item: SettleItem, { job, onGiveUp }: GivingUp): Promise<boolean> {
    const ctx = systemContext(organisationId, this.clock.now(), job.kind);
    return inTenant(this.database, ctx, async (tx) => {
      const settled = await queryRows<{ id: string }>(tx, settleStatement([item]));
      if (settled.length === 0) return false;
      await onGiveUp(tx, ctx, job, item.lastError ?? '');
      return true;
    });
  }

  private async retrying(record: () => Promise<boolean>, stopping: AbortSignal): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await record();
      } catch (err) {
        const wait = SETTLE_RETRY_MS[attempt];
        if (wait === undefined || stopping.aborted || !isDatabaseUnavailable(err)) throw err;
        await pause(wait, stopping);
      }
    }
  }
}
