import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { jobStatuses } from './enums';
import { organisations } from './tenancy';

/**
 * The background job queue (transactional outbox): a job is inserted in the same transaction as the
 * change that causes it and claimed by workers with FOR UPDATE SKIP LOCKED (actiondesk_claim_jobs).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    // The record the job is about (an action, …), so its jobs can be listed and cancelled with it.
    subjectId: uuid('subject_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: jobStatuses }).notNull(),
    runAt: ts('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    // Attempts that began sending the job's message (recorded before it leaves, migration 0040): more
    // than one means it was sent again after an attempt whose outcome was not known, with the same
    // Message-ID or idempotency key, so that relays and providers can drop the copy.
    sends: integer('sends').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    // Set at each claim; only the holder of the current lease may record the outcome.
    leaseToken: uuid('lease_token'),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    finishedAt: ts('finished_at'),
    createdAt: ts('created_at').notNull(),
    // The request whose transaction made the job (its X-Request-Id), from the transaction's app.request
    // (migration 0027), so that the job's log lines can be traced back to it; null when none did.
    // The worker process holding the lease (a random id per process): after losing the database in the
    // middle of a claim, it hands back what it holds without knowing (migration 0037).
    claimedBy: text('claimed_by'),
    requestId: text('request_id').default(
      sql`(nullif(current_setting('app.request', true), '')::jsonb ->> 'id')`,
    ),
  },
  (t) => [
    // The id leads: a job is found by id whatever the planner thinks of its organisation's share
    // (migration 0049).
    primaryKey({ name: 'jobs_pkey', columns: [t.id, t.organisationId] }),
    // The claim reads due pending jobs and expired leases through separate indexes, so jobs running
    // now are never stepped over (actiondesk_claim_jobs, migration 0011).
    index('jobs_pending_idx').on(t.runAt).where(sql`${t.status} = 'pending'`),
    index('jobs_lease_idx').on(t.lockedUntil).where(sql`${t.status} = 'running'`),
    index('jobs_org_subject_idx').on(t.organisationId, t.subjectId),
    // Finished jobs by age, for the retention sweep (actiondesk_prune, migration 0036).
    index('jobs_finished_idx')
      .on(t.finishedAt)
      .where(sql`${t.status} <> 'pending' AND ${t.status} <> 'running'`),
  ],
);
