import type { Tx } from '../db/database';
import type { RequestContext } from '../kernel/context';
import { JobPayloadError } from './job-type';

// What a job is to its handler: the claimed job, the outcomes a handler answers, the errors that steer
// retries, and running an attempt within its time limit. The worker (worker.ts) claims, runs and settles.

export interface ClaimedJob<P = unknown> {
  id: string;
  organisationId: string;
  kind: string;
  subjectId: string | null;
  /** Checked against the job type's schema when claimed. */
  payload: P;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
  leaseToken: string;
  /** The request whose transaction made the job, if one did (for the logs). */
  requestId: string | null;
}

/** A row of actiondesk_claim_jobs as the job a handler runs (its payload not yet checked). */
export function claimedJob(r: Record<string, unknown>): ClaimedJob {
  return {
    id: r.id as string,
    organisationId: r.organisation_id as string,
    kind: r.kind as string,
    subjectId: (r.subject_id as string | null) ?? null,
    payload: r.payload,
    attempt: r.attempts as number,
    maxAttempts: r.max_attempts as number,
    leaseToken: r.lease_token as string,
    requestId: (r.request_id as string | null) ?? null,
  };
}

/** What a handler may answer instead of succeeding: the job no longer applies (not an error). */
export interface JobCancelled {
  cancelled: string;
}

/**
 * What a handler answers when it recorded the job's success itself, in the same transaction as its own
 * writes (with jobRepository's settleStatement and the job's lease token): `settled` says whether the
 * lease was still its own. The worker then records nothing more.
 */
export interface JobSettled {
  settled: boolean;
}

/** Thrown by a handler that chooses when the next attempt runs (its own schedule); final on the last attempt. */
export class RetryLaterError extends Error {
  override name = 'RetryLaterError';
  constructor(
    message: string,
    readonly retryAt: Date,
  ) {
    super(message);
  }
}

/** Thrown by a handler when retrying cannot help (e.g. the contact has no e-mail address). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/**
 * Runs one attempt of a job. `signal` aborts when the attempt passes its type's timeout: work that can
 * be cancelled (an outbound request) should listen to it.
 */
export type JobHandler<P = unknown> = (
  job: ClaimedJob<P>,
  signal: AbortSignal,
) => Promise<JobCancelled | JobSettled | undefined>;

/**
 * Writes what a job's final failure causes (e.g. telling whoever waits on its message that it was not
 * delivered), in the transaction that records the failure: both commit together, or neither does. Called
 * once per job, with its payload checked and the error it failed with; never on a retry.
 */
export type GiveUpHook<P = unknown> = (
  tx: Tx,
  ctx: RequestContext,
  job: ClaimedJob<P>,
  error: string,
) => Promise<void>;

class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
}

/** Lets services nudge the worker after committing new jobs, without knowing the worker. */
export interface JobSignal {
  wake(): void;
}

/**
 * Runs `work` for at most `ms`: past it the attempt fails with a timeout and `work`'s signal aborts.
 * Work that ignores the signal goes on in the background; its late result or error is dropped.
 */
export async function withTimeout<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  stopping?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  const ended = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new JobTimeoutError(`the attempt took longer than ${ms} ms`));
    }, ms);
    onStop = () => {
      controller.abort();
      reject(stopping?.reason);
    };
    stopping?.addEventListener('abort', onStop, { once: true });
  });
  const running = work(controller.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, ended]);
  } finally {
    clearTimeout(timer);
    if (onStop) stopping?.removeEventListener('abort', onStop);
  }
}

/** The worker is stopping and hands the attempt back (its lease is released, not its outcome recorded). */
export class JobInterrupted extends Error {
  override name = 'JobInterrupted';
}

/**
 * What a failed attempt leaves: failed for good (a permanent error, a payload its type refuses, the last
 * attempt), or pending again at `retryAt` (the type's back-off) or when the handler asked.
 */
export function failedAttempt(
  err: unknown,
  job: Pick<ClaimedJob, 'attempt' | 'maxAttempts'>,
  retryAt: Date,
): { status: 'failed' | 'pending'; error: string; runAt: Date } {
  const message = err instanceof Error ? err.message : String(err);
  const final =
    err instanceof PermanentJobError || err instanceof JobPayloadError || job.attempt >= job.maxAttempts;
  return {
    status: final ? 'failed' : 'pending',
    error: message.slice(0, 1000),
    runAt: err instanceof RetryLaterError ? err.retryAt : retryAt,
  };
}

/** Waits `ms`, or less if `stopping` aborts meanwhile. */
export function pause(ms: number, stopping: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    stopping.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
