import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type JobStatus, jobs } from '../../db/schema';
import { type AppDb, type Queryable, queryRows, type Tx } from '../db/database';
import { slot } from '../db/statement-shape';
import type { RequestContext } from '../kernel/context';
import { newId } from '../kernel/ids';
import type { JobQueueRow } from '../ops/metrics';

export interface NewJob {
  kind: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  runAt: Date;
  maxAttempts: number;
}

export type JobRecord = typeof jobs.$inferSelect;

/** A claimed job's outcome to record. */
export interface SettleItem {
  id: string;
  leaseToken: string;
  status: JobStatus;
  /** When it runs again (pending only). */
  runAt: Date | null;
  lastError: string | null;
  finishedAt: Date | null;
}

/**
 * Claims up to `limit` due jobs of every organisation for `leaseSeconds` (SECURITY DEFINER function: the
 * worker works across tenants); rows come back raw.
 */
export function claimDueJobs(q: Queryable, now: Date, limit: number, leaseSeconds: number, worker: string) {
  return queryRows<Record<string, unknown>>(
    q,
    sql`SELECT * FROM actiondesk_claim_jobs(${now.toISOString()}::timestamptz, ${limit}::integer, ${leaseSeconds}::integer, ${worker}::text)`,
  );
}

/**
 * Hands back the jobs running under `worker`'s name whose lease tokens are not in `held` (claims whose
 * answer was lost with the connection); answers their ids (migration 0037).
 */
export async function releaseUnheld(
  q: Queryable,
  now: Date,
  worker: string,
  held: string[],
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`SELECT id FROM actiondesk_release_unheld(${now.toISOString()}::timestamptz, ${worker}::text, ${`{${held.join(',')}}`}::uuid[])`,
  );
  return rows.map((r) => r.id);
}

/** The job queue as seen from a tenant transaction: jobs are written with the change that causes them. */
/** The queue of every organisation by kind and state (SECURITY DEFINER function, migration 0035). */
export async function readJobQueue(q: Queryable, now: Date): Promise<JobQueueRow[]> {
  const rows = await queryRows<{
    kind: string;
    state: JobQueueRow['state'];
    jobs: unknown;
    oldest_due_seconds: unknown;
  }>(q, sql`SELECT * FROM actiondesk_job_queue(${now.toISOString()}::timestamptz)`);
  return rows.map((r) => ({
    kind: r.kind,
    state: r.state,
    jobs: Number(r.jobs),
    oldestDueSeconds: r.oldest_due_seconds === null ? null : Number(r.oldest_due_seconds),
  }));
}

/**
 * The statement recording claimed jobs' outcomes, each only if its lease is still ours: one UPDATE
 * for all of them; the ids settled come back. Jobs are found by primary key alone (row-level
 * security keeps them to the organisation): see deliveryStatements in modules/webhooks for why.
 */
export function settleStatement(items: SettleItem[]): SQL {
  const rows = sql.join(
    items.map(
      (i) =>
        sql`(${i.id}::uuid, ${i.leaseToken}::uuid, ${i.status}::text, ${i.runAt?.toISOString() ?? null}::timestamptz, ${i.lastError}::text, ${i.finishedAt?.toISOString() ?? null}::timestamptz)`,
    ),
    sql`, `,
  );
  return sql`
      UPDATE jobs j
         SET status = v.status, run_at = coalesce(v.run_at, j.run_at), last_error = v.last_error,
             finished_at = v.finished_at,
             lease_token = NULL, locked_until = NULL
        FROM (VALUES ${rows}) AS v(id, lease_token, status, run_at, last_error, finished_at)
       WHERE j.id = v.id AND j.lease_token = v.lease_token AND j.status = 'running'
      RETURNING j.id`;
}

/** A job's row: of values, or of a statement shape's slots. */
function jobRow(job: Record<keyof NewJob | 'id', unknown>, organisationId: unknown, createdAt: unknown) {
  const { id, kind, subjectId, payload, runAt, maxAttempts } = job;
  return {
    id,
    organisationId,
    kind,
    subjectId,
    payload,
    status: 'pending',
    runAt,
    maxAttempts,
    createdAt,
  } as never;
}

/**
 * The INSERT of `count` jobs for a statement shape (db/statement-shape.ts), to combine with the change
 * that causes them: its slots are `org`, `at` and each job's `job<i>.<field>`, filled by jobSlots.
 */
export function jobsInsertShape(q: AppDb, count: number): SQL {
  const rows = Array.from({ length: count }, (_, i) =>
    jobRow(
      {
        id: slot(`job${i}.id`),
        kind: slot(`job${i}.kind`),
        subjectId: slot(`job${i}.subjectId`),
        payload: slot(`job${i}.payload`),
        runAt: slot(`job${i}.runAt`),
        maxAttempts: slot(`job${i}.maxAttempts`),
      },
      slot('org'),
      slot('at'),
    ),
  );
  return q.insert(jobs).values(rows).getSQL();
}

/** The values of jobsInsertShape's job slots (`org` and `at` are the caller's). */
export function jobSlots(items: NewJob[], now: Date): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  items.forEach((j, i) => {
    values[`job${i}.id`] = newId(now.getTime());
    values[`job${i}.kind`] = j.kind;
    values[`job${i}.subjectId`] = j.subjectId;
    values[`job${i}.payload`] = j.payload;
    values[`job${i}.runAt`] = j.runAt;
    values[`job${i}.maxAttempts`] = j.maxAttempts;
  });
  return values;
}

export function jobRepository(q: Tx, ctx: RequestContext) {
  const org = eq(jobs.organisationId, ctx.organisationId);
  return {
    async enqueue(items: NewJob[], now: Date): Promise<void> {
      if (items.length === 0) return;
      await q
        .insert(jobs)
        .values(items.map((j) => jobRow({ ...j, id: newId(now.getTime()) }, ctx.organisationId, now)));
    },
    /**
     * Counts this attempt as one that began sending, while its lease is still ours: answers how many
     * attempts had begun before it, or null when the lease was lost (another worker has the job now).
     */
    async beginSend(id: string, leaseToken: string): Promise<number | null> {
      const [row] = await q
        .update(jobs)
        .set({ sends: sql`${jobs.sends} + 1` })
        .where(and(org, eq(jobs.id, id), eq(jobs.leaseToken, leaseToken), eq(jobs.status, 'running')))
        .returning({ sends: jobs.sends });
      return row ? row.sends - 1 : null;
    },
    /** Takes back this attempt's beginSend: the peer refused the message, so nothing left. */
    async refusedSend(id: string, leaseToken: string): Promise<void> {
      await q
        .update(jobs)
        .set({ sends: sql`greatest(${jobs.sends} - 1, 0)` })
        .where(and(org, eq(jobs.id, id), eq(jobs.leaseToken, leaseToken), eq(jobs.status, 'running')));
    },
    /** The subject's pending jobs of a kind (when they run). */
    async pendingOf(subjectId: string, kind: string): Promise<{ id: string; runAt: Date }[]> {
      return q
        .select({ id: jobs.id, runAt: jobs.runAt })
        .from(jobs)
        .where(and(org, eq(jobs.subjectId, subjectId), eq(jobs.kind, kind), eq(jobs.status, 'pending')));
    },
    /** Makes the given pending jobs due at `at` (test mode's fast-forward); answers how many. */
    async bringForward(ids: string[], at: Date): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await q
        .update(jobs)
        .set({ runAt: at })
        .where(and(org, inArray(jobs.id, ids), eq(jobs.status, 'pending')))
        .returning({ id: jobs.id });
      return rows.length;
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
    /**
     * Hands claimed jobs back (a worker stopping before they finished): each is due again at once, for
     * any worker, and the interrupted attempt does not count. Only while its lease is still ours.
     */
    async release(items: { id: string; leaseToken: string }[], now: Date): Promise<number> {
      if (items.length === 0) return 0;
      const rows = sql.join(
        items.map((i) => sql`(${i.id}::uuid, ${i.leaseToken}::uuid)`),
        sql`, `,
      );
      const released = await queryRows<{ id: string }>(
        q,
        sql`
        UPDATE jobs j
           SET status = 'pending', run_at = ${now.toISOString()}::timestamptz,
               attempts = greatest(j.attempts - 1, 0), lease_token = NULL, locked_until = NULL
          FROM (VALUES ${rows}) AS v(id, lease_token)
         WHERE j.id = v.id AND j.lease_token = v.lease_token AND j.status = 'running'
        RETURNING j.id`,
      );
      return released.length;
    },
  };
}
