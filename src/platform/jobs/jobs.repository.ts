import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type JobStatus, jobs } from '../../db/schema';
import type { RequestContext } from '../context';
import { type Queryable, queryRows } from '../db/database';
import { newId } from '../ids';

export interface NewJob {
  kind: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  runAt: Date;
  maxAttempts: number;
}

export type JobRecord = typeof jobs.$inferSelect;

/**
 * Claims up to `limit` due jobs of every organisation for `leaseSeconds` (SECURITY DEFINER function: the
 * worker works across tenants); rows come back raw.
 */
export function claimDueJobs(q: Queryable, now: Date, limit: number, leaseSeconds: number) {
  return queryRows<Record<string, unknown>>(
    q,
    sql`SELECT * FROM actiondesk_claim_jobs(${now.toISOString()}::timestamptz, ${limit}::integer, ${leaseSeconds}::integer)`,
  );
}

/** The job queue as seen from a tenant transaction: jobs are written with the change that causes them. */
export function jobRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(jobs.organisationId, ctx.organisationId);
  return {
    async enqueue(items: NewJob[], now: Date): Promise<void> {
      if (items.length === 0) return;
      await q.execute(this.insertStatement(items, now));
    },
    /** The INSERT of `items` as a statement, to combine with the change that causes them. */
    insertStatement(items: NewJob[], now: Date): SQL {
      return q
        .insert(jobs)
        .values(
          items.map((j) => ({
            id: newId(now.getTime()),
            organisationId: ctx.organisationId,
            kind: j.kind,
            subjectId: j.subjectId,
            payload: j.payload,
            status: 'pending' as const,
            runAt: j.runAt,
            maxAttempts: j.maxAttempts,
            createdAt: now,
          })),
        )
        .getSQL();
    },
    /** Cancels the subject's pending jobs of the given kinds (e.g. an action's messages when it closes). */
    async cancelPending(subjectId: string, kinds: string[], reason: string, now: Date): Promise<number> {
      const rows = await q
        .update(jobs)
        .set({ status: 'cancelled', lastError: reason, finishedAt: now, leaseToken: null })
        .where(and(org, eq(jobs.subjectId, subjectId), inArray(jobs.kind, kinds), eq(jobs.status, 'pending')))
        .returning({ id: jobs.id });
      return rows.length;
    },
    /** The statement recording a claimed job's outcome, if the lease is still ours (a row comes back). */
    settleStatement(
      id: string,
      leaseToken: string,
      change: {
        status: JobStatus;
        runAt?: Date;
        lastError: string | null;
        finishedAt: Date | null;
        /** The run did not count as an attempt (deferred): its claim's count is taken back. */
        uncounted?: boolean;
      },
    ): SQL {
      const { uncounted, ...rest } = change;
      return q
        .update(jobs)
        .set({
          ...rest,
          leaseToken: null,
          lockedUntil: null,
          ...(uncounted ? { attempts: sql`${jobs.attempts} - 1` } : {}),
        })
        .where(and(org, eq(jobs.id, id), eq(jobs.leaseToken, leaseToken), eq(jobs.status, 'running')))
        .returning({ id: jobs.id })
        .getSQL();
    },
  };
}
