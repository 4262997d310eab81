import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { type JobStatus, jobs } from '../../db/schema';
import type { RequestContext } from '../context';
import type { Queryable } from '../db/database';
import { newId } from '../ids';

export interface NewJob {
  kind: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  runAt: Date;
  maxAttempts: number;
}

export type JobRecord = typeof jobs.$inferSelect;

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
    /** Cancels the subject's pending jobs of `kind` whose payload matches `where` (e.g. reminders). */
    async cancelPending(
      subjectId: string,
      kind: string,
      payloadMatch: Record<string, unknown>[],
      reason: string,
      now: Date,
    ): Promise<number> {
      const rows = await q
        .update(jobs)
        .set({ status: 'cancelled', lastError: reason, finishedAt: now, leaseToken: null })
        .where(
          and(
            org,
            eq(jobs.subjectId, subjectId),
            eq(jobs.kind, kind),
            eq(jobs.status, 'pending'),
            sql`(${sql.join(
              payloadMatch.map((m) => sql`${jobs.payload} @> ${JSON.stringify(m)}::jsonb`),
              sql` OR `,
            )})`,
          ),
        )
        .returning({ id: jobs.id });
      return rows.length;
    },
    async forSubject(subjectId: string, kind: string): Promise<JobRecord[]> {
      return q
        .select()
        .from(jobs)
        .where(and(org, eq(jobs.subjectId, subjectId), eq(jobs.kind, kind)))
        .orderBy(asc(jobs.runAt), asc(jobs.id));
    },
    /** The statement recording a claimed job's outcome, if the lease is still ours (a row comes back). */
    settleStatement(
      id: string,
      leaseToken: string,
      change: { status: JobStatus; runAt?: Date; lastError: string | null; finishedAt: Date | null },
    ): SQL {
      return q
        .update(jobs)
        .set({ ...change, leaseToken: null, lockedUntil: null })
        .where(and(org, eq(jobs.id, id), eq(jobs.leaseToken, leaseToken), eq(jobs.status, 'running')))
        .returning({ id: jobs.id })
        .getSQL();
    },
  };
}
